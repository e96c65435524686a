# Sourced (not run) by soak.sh for `soak.sh --hostile [SECONDS]`: what the mode does and
# its settings are described at the top of soak.sh. Uses soak.sh's ROOT, BIN, DRIVER, LOG,
# SECONDS_TO_RUN and rss_kb, and fills SERVER_PID, GROUP_PIDS and WORK for its `finish`
# trap, which stops every process started here (by pid) and removes WORK. Sets `failed`.
# shellcheck shell=bash

# free_port, wait_for_healthz
# shellcheck source=scripts/lib/server.sh
. "$ROOT/scripts/lib/server.sh"

FD_LIMIT="${SOAK_FD_LIMIT:-1024}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/sudoku-soak-hostile.XXXXXX")"
KEYS="$WORK/api-keys"
FIFO="$WORK/log.fifo"

SOAK_API_KEY="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
export SOAK_API_KEY  # read by soak_driver.py; never on a command line
(umask 077 && printf 'soak %s\n' "$SOAK_API_KEY" >"$KEYS")

PORT="$(free_port)"
ADMIN_PORT="$(free_port)"
while [ "$ADMIN_PORT" = "$PORT" ]; do ADMIN_PORT="$(free_port)"; done

# The stalled log: a fifo held open read-write on fd 3 here, so the server's writes never
# meet a closed pipe, and never read until the load is over.
mkfifo "$FIFO"
exec 3<>"$FIFO"
drain_log() { timeout 1 cat <&3 >>"$LOG" 2>/dev/null || true; }

echo "== starting the server on 127.0.0.1:$PORT, admin 127.0.0.1:$ADMIN_PORT, fd limit $FD_LIMIT," \
    "API keys on, its log into a fifo nobody reads"
# shellcheck disable=SC2086 # SOAK_SERVER_ARGS is a list of flags
(
    ulimit -n "$FD_LIMIT"
    RUST_LOG="${RUST_LOG:-info}" exec "$BIN" serve --listen "127.0.0.1:$PORT" \
        --admin-listen "127.0.0.1:$ADMIN_PORT" --api-keys-file "$KEYS" \
        ${SOAK_SERVER_ARGS:-} >&3 2>&3 3>&-
) &
SERVER_PID=$!
if ! wait_for_healthz "http://127.0.0.1:$ADMIN_PORT" "$SERVER_PID" 100 0.1; then
    drain_log
    echo "the server did not start:"
    cat "$LOG"
    exit 1
fi
RSS_START=$(rss_kb)
FDS_START=$(find "/proc/$SERVER_PID/fd" -mindepth 1 -maxdepth 1 | wc -l)

# Each group as its own process, bounded twice: by its own deadline, and by `timeout`
# well after it (TERM, then KILL 5 s later).
group() {
    local name="$1" seconds="$2"
    shift 2
    timeout -k 5 "$((seconds + 60))" python3 "$DRIVER" "$name" --seconds "$seconds" "$@" \
        >"$WORK/$name.json" 2>"$WORK/$name.err" 3>&- &
    GROUP_PIDS+=($!)
}

# The client and the probe start 2 s in, once the idle flood is up (it opens for 1 s), so
# that they always meet the whole load, connecting included; the load outlasts them by 1 s.
LOAD_SECONDS=$((SECONDS_TO_RUN + 3))
echo "== hostile load for ${LOAD_SECONDS}s: ${HOSTILE_NONREADERS:-20} non-readers," \
    "${HOSTILE_IDLE:-900} idle + ${HOSTILE_HALF_HEADS:-100} half-sent heads," \
    "${HOSTILE_SLOW_BODIES:-20} slow bodies, bursts of ${HOSTILE_BATCHES:-4} x ${HOSTILE_BATCH_BOARDS:-1000}-board" \
    "hard batches, ${HOSTILE_LOG_SPAM_RATE:-1000} logged 404s/s, SIGHUP every 100 ms; the well-behaved client and the admin probe for ${SECONDS_TO_RUN}s from 2 s in"
group watch "$((LOAD_SECONDS + 1))" --pid "$SERVER_PID"
group hup-storm "$LOAD_SECONDS" --pid "$SERVER_PID" --keys-file "$KEYS" --every 0.1
group nonreaders "$LOAD_SECONDS" --port "$PORT" --concurrency "${HOSTILE_NONREADERS:-20}"
group idle "$LOAD_SECONDS" --port "$PORT" --concurrency "${HOSTILE_IDLE:-900}" \
    --half-heads "${HOSTILE_HALF_HEADS:-100}"
group slow-body "$LOAD_SECONDS" --port "$PORT" --concurrency "${HOSTILE_SLOW_BODIES:-20}"
group batch-burst "$LOAD_SECONDS" --port "$PORT" --concurrency "${HOSTILE_BATCHES:-4}" \
    --boards "${HOSTILE_BATCH_BOARDS:-1000}" --every 5
if [ "${HOSTILE_LOG_SPAM_RATE:-1000}" != 0 ]; then
    group log-spam "$LOAD_SECONDS" --port "$PORT" --concurrency 2 --rate "${HOSTILE_LOG_SPAM_RATE:-1000}"
fi
sleep 2
group client "$SECONDS_TO_RUN" --port "$PORT"
group admin-probe "$SECONDS_TO_RUN" --port "$ADMIN_PORT"

for pid in "${GROUP_PIDS[@]}"; do
    wait "$pid" || echo "   (a load process, pid $pid, exited $?)"
done
GROUP_PIDS=()

# Alive, not a zombie nobody has reaped yet (kill -0 succeeds on those).
SERVER_ALIVE=1
grep -qs '^State:[[:space:]]*[^Z]' "/proc/$SERVER_PID/status" || SERVER_ALIVE=0
RSS_END=0
FDS_END=0
AFTER=dead
if [ "$SERVER_ALIVE" = 1 ]; then
    RSS_END=$(rss_kb)
    # The load's connections are closed: let the server see it before counting fds.
    sleep 1
    FDS_END=$(find "/proc/$SERVER_PID/fd" -mindepth 1 -maxdepth 1 | wc -l)
    python3 "$DRIVER" metrics --port "$ADMIN_PORT" >"$WORK/metrics.json" 2>"$WORK/metrics.err" 3>&- ||
        echo '{}' >"$WORK/metrics.json"
    # After the load: does it still serve?
    AFTER=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
        -H "Authorization: Bearer $SOAK_API_KEY" \
        -d '{"board":"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"}' \
        "http://127.0.0.1:$PORT/solve" 3>&-) || true
fi
# What the stalled pipe held; once drained, the server can write again, and its next line
# says how many went.
drain_log
[ "$SERVER_ALIVE" = 1 ] && curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/openapi.yaml" 3>&- || true
sleep 0.2
drain_log

failed=0
REPORT="$(mktemp "${TMPDIR:-/tmp}/sudoku-soak-hostile.XXXXXX.json")"
python3 - "$WORK" "$REPORT" "$SERVER_ALIVE" "$RSS_START" "$RSS_END" "$FDS_START" "$FDS_END" \
    "$AFTER" "$FD_LIMIT" "$LOG" <<'EOF' || failed=1
import json, os, re, sys
work, report_path = sys.argv[1], sys.argv[2]
alive = sys.argv[3] == "1"
rss_start, rss_end, fds_start, fds_end = map(int, sys.argv[4:8])
after, fd_limit, log_path = sys.argv[8], int(sys.argv[9]), sys.argv[10]
names = ["client", "admin-probe", "nonreaders", "idle", "slow-body", "batch-burst",
         "log-spam", "hup-storm", "watch", "metrics"]
groups, problems = {}, []
for name in names:
    try:
        with open(os.path.join(work, f"{name}.json")) as f:
            groups[name] = json.load(f)
    except (OSError, ValueError):
        try:
            err = open(os.path.join(work, f"{name}.err")).read().strip()[-600:]
        except OSError:  # not started (log-spam at rate 0)
            groups[name] = None
            continue
        groups[name] = None
        if name != "metrics" or alive:
            problems.append(f"the {name} process gave no summary: {err or 'no output'}")
# The server's own word, in the lines that got through: how many it dropped (said once its
# log drained again), accepts and key reloads that failed.
log_text = open(log_path, errors="replace").read()
told = [int(x) for x in re.findall(
    r"log lines dropped while the log output was not draining.*?dropped=(\d+)", log_text)]
log_seen = {
    "lines": log_text.count("\n"),
    "accept_failed": log_text.count("accept failed"),
    "accept_failed_emfile": len(re.findall(r"accept failed.*os error 24", log_text)),
    "keys_reloaded": log_text.count("API keys reloaded"),
    "keys_not_reloaded": log_text.count("API keys not reloaded"),
}
report = {"server": {"alive_at_end": alive, "log_says_dropped": sum(told), "log_lines_that_got_through": log_seen, "fd_limit": fd_limit, "rss_kb_start": rss_start,
                     "rss_kb_end": rss_end, "fds_start": fds_start, "fds_end": fds_end,
                     "plain_solve_after": after}, **groups}
with open(report_path, "w") as f:
    json.dump(report, f, indent=2)

def lat(l):
    l = l or {}
    return f"p50 {l.get('p50_ms')} ms, p99 {l.get('p99_ms')} ms, max {l.get('max_ms')} ms (n {l.get('n', 0)})"

print()
c = groups["client"]
if c:
    print(f"== well-behaved client: {c['requests']} requests in {c['seconds']} s, "
          f"{c['answered_200']} answered 200, errors {c['error_count']}: {c['errors'] or 'none'}")
    print(f"   latency {lat(c['latency'])}")
    for kind, l in c["latency_by_kind"].items():
        print(f"     {kind:>8}: {lat(l)}")
    print(f"   connections opened {c['connections_opened']}, "
          f"closed by the server between requests {c['closed_by_server_while_idle']}"
          + (f"; first error at {c['first_error']['at_s']} s: {c['first_error']['what']}"
             if c["first_error"] else ""))
    if c["error_count"]:
        problems.append(f"the well-behaved client saw {c['error_count']} errors: {c['errors']}")
    if not c["answered_200"]:
        problems.append("the well-behaved client was never answered")
a = groups["admin-probe"]
if a:
    print(f"== admin /healthz probe (a new connection each): {a['probes']} probes, "
          f"errors {a['error_count']}: {a['errors'] or 'none'}; {lat(a['latency'])}")
n = groups["nonreaders"]
if n:
    print(f"== non-readers: {n['connections_opened']} connections opened, "
          f"{n['closed_by_server']} closed by the server, connect errors {n['connect_errors'] or 'none'}; "
          f"{n['requests_written']} GET /openapi.yaml written, never read; at the end "
          f"{n['connections_open_at_end']} still open, {n['unread_bytes_at_end']} bytes "
          f"({n['answer_heads_in_unread_buffers']} answer heads) unread in ours, "
          f"{n['server_send_queue_bytes_at_end']} bytes in the server's send queues")
i = groups["idle"]
if i:
    for kind in ("silent", "half_heads"):
        g = i[kind]
        life = g["lifetime_until_closed"] or {}
        print(f"== idle flood, {kind.replace('_', '-')} ({i['at_once'][kind]} at once): "
              f"{g['connections_opened']} connections opened, {g['closed_by_server']} closed "
              f"and {g['reset_by_server']} reset by the server (after p50 {life.get('p50_ms')} ms, "
              f"max {life.get('max_ms')} ms), answers {g['answers'] or 'none'}, "
              f"connect errors {g['connect_errors'] or 'none'}; {g['open_at_end']} open at "
              f"the end, the oldest for {g['oldest_open_at_end_s']} s")
s = groups["slow-body"]
if s:
    print(f"== slow bodies: {s['connections_opened']} connections, {s['body_bytes_trickled']} "
          f"body bytes trickled, answers {s['answers'] or 'none'} ({lat(s['answer_latency'])}), "
          f"closed by the server after the answer {s['closed_by_server_after_answer']}, "
          f"without one {s['closed_by_server_without_answer']}, "
          f"connect errors {s['connect_errors'] or 'none'}")
b = groups["batch-burst"]
if b:
    print(f"== hard batches: {b['bursts']} bursts, {b['batches']} batches of "
          f"{b['boards_a_batch']} boards ({b['body_bytes']} bytes): statuses {b['statuses'] or 'none'}, "
          f"errors {b['errors'] or 'none'}, unfinished at the deadline {b['unfinished_at_deadline']}; "
          f"boards {b['board_results'] or 'none'}; {lat(b['batch_latency'])}")
ls = groups["log-spam"]
if ls:
    print(f"== log spam: {ls['requests']} requests ({ls['rate_asked']:.0f}/s asked), statuses "
          f"{ls['statuses'] or 'none'}, errors {ls['errors'] or 'none'}")
h = groups["hup-storm"]
if h:
    print(f"== SIGHUP storm: {h['sighups_sent']} SIGHUPs sent, keys file rewritten "
          f"{h['keys_file_rewrites']} times")
m = (groups["metrics"] or {}).get("totals", {})
if groups["metrics"]:
    print(f"== /metrics (admin) after the load: log_lines_dropped_total "
          f"{int(m.get('log_lines_dropped_total', -1))}, overloaded_rejections_total "
          f"{int(m.get('overloaded_rejections_total', -1))}, unauthorized_rejections_total "
          f"{int(m.get('unauthorized_rejections_total', -1))}; http_requests_total by status "
          f"{ {k: int(v) for k, v in sorted(groups['metrics']['http_requests_by_status'].items())} }")
if told:
    print(f"   the log, once drained, said {sum(told)} lines were dropped")
print(f"   in the {log_seen['lines']} log lines that got through: accept failed "
      f"{log_seen['accept_failed']} ({log_seen['accept_failed_emfile']} out of fds), API keys "
      f"reloaded {log_seen['keys_reloaded']}, not reloaded {log_seen['keys_not_reloaded']}")
w = groups["watch"] or {}
print(f"== server: fd limit {fd_limit}; RSS {rss_start} kB at start, {rss_end} kB at the end "
      f"(max {((w.get('rss_kb') or {}).get('max'))} kB); open fds {fds_start} at start, "
      f"max {((w.get('fds') or {}).get('max'))} during the load, {fds_end} after; "
      f"threads max {w.get('threads_max')}")
print(f"   a plain /solve afterwards: {after}")
if not alive or w.get("died_at_s") is not None:
    problems.append(f"the server died (at {w.get('died_at_s')} s into the load)")
if alive and after != "200":
    problems.append(f"a plain /solve after the load answered {after}")
for p in problems:
    print(f"FAIL: {p}")
print("PASS" if not problems else "FAILED")
sys.exit(1 if problems else 0)
EOF
echo "(server log, what the stalled pipe held: $LOG; every figure: $REPORT)"
