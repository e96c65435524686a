#!/usr/bin/env bash
# Soak and flood the real release server on a free 127.0.0.1 port.
#
#   scripts/bench/soak.sh [SECONDS]             mixed load (default 60 s, at most 3600)
#   scripts/bench/soak.sh --flood [SECONDS]     overload flood (default 30 s)
#   scripts/bench/soak.sh --hostile [SECONDS]   hostile clients beside a well-behaved one (default 60 s)
#
# Mixed load: SOAK_CONCURRENCY (default 32) keep-alive connections send, back to back, a
# weighted mix of valid requests (/solve in all three forms, /validate, small batches,
# /healthz, /metrics), invalid ones (broken JSON, 1.5, invalid UTF-8, deep nesting, 70 kB
# bodies, 415, 404, 405, 422) and hard puzzles (Easter Monster, AI Escargot, Norvig's hard1,
# the empty board). Fails (exit 1) if any 5xx other than 503 `overloaded` appears, if a
# shed answer lacks Retry-After, if the server dies, or if its RSS at the end is over twice
# its RSS after a 5-second warm-up (RSS at launch is reported too, but the first requests
# legitimately grow it: thread stacks of the solver pool, allocator arenas).
#
# Flood: FLOOD_CONCURRENCY (default 500) connections send the slowest input known (a sparse
# board, scripts/bench/soak_driver.py) back to back against the default limits, while another
# process probes /healthz every 50 ms. Reports shed 503s and their latency, /healthz latency during the flood, RSS
# before (after a 3 s warm-up flood: 500 connections' buffers are not a leak) and after;
# fails on a 5xx other than 503 `overloaded`, on a /healthz failure, or if RSS after is
# over twice RSS before.
#
# Hostile: the server runs with an API keys file, an admin address (--admin-listen, where
# /metrics and the probed /healthz are), its fd limit lowered to SOAK_FD_LIMIT (default
# 1024, `ulimit -n` in the subshell that execs it), RUST_LOG=info, and its log (stdout and
# stderr) into a fifo this script holds open and nobody reads (a stalled log: lines must
# be dropped, not waited for). Then for SECONDS, each group its own process:
#   - non-readers: HOSTILE_NONREADERS (20) connections, SO_RCVBUF 4096, pipelining
#     GET /openapi.yaml (up to 10,000 each) and never reading;
#   - an idle flood: HOSTILE_IDLE (900) silent connections and HOSTILE_HALF_HEADS (100)
#     half-sent request heads trickled a byte every 2 s, opened 1 ms apart (a burst would
#     overflow the listen backlog and leave connections the server never held), each
#     reopened when the server closes it; with the others, more connections than
#     SOAK_FD_LIMIT, so the caps matter;
#   - slow bodies: HOSTILE_SLOW_BODIES (20) POST /solve, the body a byte a second;
#   - hard batches: every 5 s a burst of HOSTILE_BATCHES (4) POST /solve/batch of
#     HOSTILE_BATCH_BOARDS (1000, the most allowed; ~85 kB, under the 1 MiB limit) of the
#     slowest and hardest boards;
#   - a log spammer: HOSTILE_LOG_SPAM_RATE (1000; 0 for none) cheap requests a second that
#     the server logs at INFO (404s), over two connections, so that the log's queue (8,192
#     lines) overflows while nobody reads the fifo;
#   - a SIGHUP storm: every 100 ms the keys file is rewritten (the soak's key and one that
#     changes) and SIGHUP sent, so the keys are reloaded ten times a second;
#   - a sampler of the server's RSS, open fds and threads every 0.5 s.
# Beside them, from 2 s in (the idle flood is up, so the client connects under the whole
# load), the well-behaved client (one keep-alive connection, reopened only when the server
# closed it; POST /solve of an ordinary puzzle and GET /healthz in turn every 20 ms, with
# the key) and a probe of the admin /healthz every 200 ms on a new connection each time,
# as a kubelet probes. Every hostile request carries the key too.
# Reports the client's requests, errors by kind and p50/p99/max latency, the admin probe's
# the same, what each hostile group did (connections opened, closed by the server, answers),
# log_lines_dropped_total, RSS at start and end, fds, SIGHUPs sent. Fails (exit 1) if the
# well-behaved client saw any error (refused, reset or closed connection, no answer within
# 2 s, any status but 200), if the server died, or if a plain /solve after the load is not
# answered 200; admin probe failures are reported, not failed on. Flags for the server go in
# SOAK_SERVER_ARGS as for the other modes, e.g. the connection cap and the write timeout
# where the build has them:
#   SOAK_SERVER_ARGS="--max-connections 900 --write-timeout 5" scripts/bench/soak.sh --hostile 30
# Leaves the server's log (what the fifo held, drained after the load) and a JSON of
# every group's figures in $TMPDIR (paths printed).
#
# The load is made by scripts/bench/soak_driver.py (Python 3 standard library, asyncio, raw
# HTTP/1.1): nothing to install. Server flags can be passed with SOAK_SERVER_ARGS, e.g.
#   SOAK_SERVER_ARGS="--max-concurrent-solves 1 --max-queued-solves 4" scripts/bench/soak.sh --flood 20
# Honours CARGO_TARGET_DIR. Leaves the server's log in $TMPDIR (path printed).
set -euo pipefail

MODE=mix
case "${1:-}" in
    --flood) MODE=flood; shift ;;
    --hostile) MODE=hostile; shift ;;
esac
DEFAULT_SECONDS=60
[ "$MODE" = flood ] && DEFAULT_SECONDS=30
SECONDS_TO_RUN="${1:-$DEFAULT_SECONDS}"
if ! [[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]] || [ "$SECONDS_TO_RUN" -lt 1 ] || [ "$SECONDS_TO_RUN" -gt 3600 ]; then
    echo "usage: $0 [--flood | --hostile] [SECONDS]   (1 to 3600)" >&2
    exit 2
fi

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
BIN="$TARGET_DIR/release/sudoku-service"
DRIVER="$ROOT/scripts/bench/soak_driver.py"
LOG="$(mktemp "${TMPDIR:-/tmp}/sudoku-soak-server.XXXXXX.log")"
SUMMARY="$(mktemp "${TMPDIR:-/tmp}/sudoku-soak-summary.XXXXXX.json")"
PROBE="$(mktemp "${TMPDIR:-/tmp}/sudoku-soak-probe.XXXXXX.json")"
SERVER_PID=""
GROUP_PIDS=()  # --hostile: the load's processes
WORK=""        # --hostile: keys file, fifo, each group's output

finish() {
    for pid in "${GROUP_PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$SERVER_PID" 2>/dev/null || true
    fi
    for pid in "${GROUP_PIDS[@]}"; do
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -f "$SUMMARY" "$PROBE"
    if [ -n "$WORK" ]; then
        exec 3>&-  # the fifo of the hostile mode's log
        rm -rf "$WORK"
    fi
}
trap finish EXIT
trap 'exit 130' INT TERM

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$SERVER_PID/status"; }

echo "== building the release binary"
(cd "$ROOT" && cargo build --release --quiet)

if [ "$MODE" = hostile ]; then
    # shellcheck source=scripts/bench/soak-hostile.sh
    . "$ROOT/scripts/bench/soak-hostile.sh"
    exit "$failed"
fi

PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
echo "== starting the server on 127.0.0.1:$PORT (log: $LOG)"
# shellcheck disable=SC2086 # SOAK_SERVER_ARGS is a list of flags
RUST_LOG="${RUST_LOG:-warn}" "$BIN" serve --listen "127.0.0.1:$PORT" ${SOAK_SERVER_ARGS:-} >"$LOG" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "the server died at start:"; cat "$LOG"; exit 1; }
    sleep 0.1
done
RSS_LAUNCH=$(rss_kb)

run_driver() { python3 "$DRIVER" "$@" --port "$PORT"; }

failed=0
if [ "$MODE" = mix ]; then
    echo "== warm-up: 5 s of the mix"
    run_driver mix --seconds 5 --concurrency "${SOAK_CONCURRENCY:-32}" --seed 7 >/dev/null
    RSS_START=$(rss_kb)
    echo "== soak: ${SECONDS_TO_RUN}s of the mix, ${SOAK_CONCURRENCY:-32} connections"
    run_driver mix --seconds "$SECONDS_TO_RUN" --concurrency "${SOAK_CONCURRENCY:-32}" >"$SUMMARY"
else
    echo "== warm-up: a 3 s flood"
    run_driver flood --seconds 3 --concurrency "${FLOOD_CONCURRENCY:-500}" >/dev/null
    sleep 1
    RSS_START=$(rss_kb)
    echo "== flood: ${SECONDS_TO_RUN}s, ${FLOOD_CONCURRENCY:-500} connections of hard puzzles," \
        "/healthz probed every 50 ms from another process"
    run_driver probe --seconds "$SECONDS_TO_RUN" >"$PROBE" &
    PROBE_PID=$!
    run_driver flood --seconds "$SECONDS_TO_RUN" --concurrency "${FLOOD_CONCURRENCY:-500}" >"$SUMMARY"
    wait "$PROBE_PID"
fi
kill -0 "$SERVER_PID" 2>/dev/null || { echo "FAIL: the server died"; cat "$LOG"; exit 1; }
RSS_END=$(rss_kb)
# After the load: does it still serve?
AFTER=$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
    -d '{"board":"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"}' \
    "http://127.0.0.1:$PORT/solve")

cat "$SUMMARY"
python3 - "$SUMMARY" "$MODE" "$RSS_LAUNCH" "$RSS_START" "$RSS_END" "$AFTER" "$PROBE" <<'EOF' || failed=1
import json, sys
summary = json.load(open(sys.argv[1]))
mode, launch, start, end, after = sys.argv[2], *map(int, sys.argv[3:6]), sys.argv[6]
if mode == "flood":
    summary["healthz"] = json.load(open(sys.argv[7]))
problems = []
bad_5xx = {k: v for k, v in summary["codes_5xx"].items() if k != "503 overloaded"}
if bad_5xx:
    problems.append(f"5xx answers other than 503 overloaded: {bad_5xx}")
if summary["overloaded_without_retry_after"]:
    problems.append(f"{summary['overloaded_without_retry_after']} shed answers without Retry-After")
if end > 2 * start:
    problems.append(f"RSS grew from {start} kB to {end} kB (over 2x)")
if after != "200":
    problems.append(f"a plain /solve after the load answered {after}")
shed = summary["codes_5xx"].get("503 overloaded", 0)
lat = summary["latency"] or {}
print()
print(f"== {mode}: {summary['requests']} requests in {summary['seconds']} s "
      f"({summary['per_second']}/s) over {summary['concurrency']} connections")
print(f"   statuses: {summary['statuses']}; shed (503 overloaded): {shed}")
print(f"   connection errors: {summary['errors'] or 'none'}")
print(f"   latency p50 {lat.get('p50_ms')} ms, p99 {lat.get('p99_ms')} ms, max {lat.get('max_ms')} ms")
for kind, kl in summary["latency_by_kind"].items():
    print(f"     {kind:>8}: n {kl['n']}, p50 {kl['p50_ms']} ms, p99 {kl['p99_ms']} ms, max {kl['max_ms']} ms")
if mode == "flood":
    health = summary["healthz"]
    hl = health["latency"] or {}
    print(f"   /healthz during the flood: {health['statuses']}, errors {health['errors'] or 'none'}, "
          f"p50 {hl.get('p50_ms')} ms, p99 {hl.get('p99_ms')} ms, max {hl.get('max_ms')} ms")
    if health["errors"] or set(health["statuses"]) - {"200"}:
        problems.append("/healthz failed during the flood")
    if not hl:
        problems.append("/healthz was never answered during the flood")
print(f"   RSS: {launch} kB at launch, {start} kB after warm-up, "
      f"{end} kB after ({end / max(start, 1):.2f}x)")
print(f"   a plain /solve afterwards: {after}")
for p in problems:
    print(f"FAIL: {p}")
print("PASS" if not problems else "FAILED")
sys.exit(1 if problems else 0)
EOF
echo "(server log: $LOG)"
exit "$failed"
