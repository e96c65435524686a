#!/usr/bin/env bash
# HTTP load benchmark: the release server on 127.0.0.1 under wrk, GET /healthz and
# POST /solve (17-clue puzzles, a different one per request) in the same run, then the
# server's peak RSS, and the `solve` command's peak RSS over the whole 17-clue file. The
# server runs as shipped: request ids, metrics, CORS and per-request logging on.
#
#   scripts/bench/load-bench.sh [SECONDS] [CONNECTIONS] [ROUNDS]   (defaults: 10 s, 32, 3 rounds)
#   SERVER_BIN=path/to/sudoku-service scripts/bench/load-bench.sh ...  (that build, not this tree's)
#
# Each round runs both endpoints back to back and prints one line per endpoint (requests/s,
# p50, p99) and that round's /solve-to-/healthz ratio; the summary is the median ratio.
# These machines are shared: a single pair of runs has read anywhere from 0.66 to 0.90.
# With CONTROL=1 each round also posts the same puzzles already solved (the command's own
# answers, 81 givens each): the same request and answer sizes, the same body parsing and
# log line, and a search with nothing to do. Its ratio is the ceiling that no faster solver
# can pass, and the gap between the two ratios is what the solver costs.
# It is a benchmark, not a test: CI builds it but does not run it.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SECONDS_PER_RUN="${1:-10}"
CONNECTIONS="${2:-32}"
ROUNDS="${3:-3}"
THREADS="${WRK_THREADS:-2}"
PUZZLES="${PUZZLES:-$ROOT/data/puzzles/puzzles2_17_clue}"

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

cd "$ROOT"
if [ -n "${SERVER_BIN:-}" ]; then
    BIN="$SERVER_BIN" # another build, for an A/B in one sitting
else
    cargo build --release --locked --quiet
    BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/sudoku-service"
fi

# shellcheck source=lib/server.sh
source "$ROOT/scripts/lib/server.sh"
PORT="$(free_port)"
WORK="$(mktemp -d)"
# As shipped (request ids, metrics, CORS, a log line per request at INFO), the log to a
# file; set RUST_LOG to compare other levels.
"$BIN" --listen "127.0.0.1:$PORT" >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
wait_for_healthz "http://127.0.0.1:$PORT" "$SERVER" 100 0.1 ||
    { echo "load-bench: no answer on /healthz within 10 s" >&2; exit 1; }

cat >"$WORK/solve.lua" <<'LUA'
-- One 17-clue puzzle per request, cycling through the file (each wrk thread has its own copy).
-- The requests are written out once, in init, and only handed over per request: wrk runs
-- on the same two cores as the server, and building each request in Lua (wrk.format's
-- string work, per request) charged /solve a client-side cost /healthz, a static request,
-- does not pay. The server sees the same bytes either way.
local requests = {}
local next_request = 0
init = function(args)
    for line in io.lines(os.getenv("PUZZLES")) do
        if line:match("^[1-9.]+$") and #line == 81 then
            requests[#requests + 1] = wrk.format("POST", "/solve",
                { ["Content-Type"] = "application/json" }, '{"board":"' .. line .. '"}')
        end
    end
end
request = function()
    next_request = next_request % #requests + 1
    return requests[next_request]
end
-- Any non-2xx answer is counted by wrk as "Non-2xx or 3xx responses".
LUA

run() { # name, extra wrk args...
    local name=$1; shift
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency "$@" >"$WORK/$name.txt"
    python3 - "$name" "$WORK/$name.txt" <<'PY'
import re, sys
name, path = sys.argv[1], sys.argv[2]
text = open(path).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
def pct(p):
    m = re.search(rf"^\s+{p}%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    value, unit = float(m.group(1)), m.group(2)
    return value * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
errors = re.search(r"Socket errors:.*", text)
print(f"{name:8s} {rps:10.0f} req/s  p50 {pct(50):7.3f} ms  p99 {pct(99):7.3f} ms"
      f"  non-2xx {bad.group(1) if bad else 0}{'  ' + errors.group(0) if errors else ''}")
open(path + ".rps", "w").write(str(rps))
PY
}

if [ "${CONTROL:-0}" = 1 ]; then
    "$BIN" solve "$PUZZLES" >"$WORK/solved-puzzles.txt" 2>/dev/null
fi

ratio() { # endpoint run name, label
    python3 -c "print(f'ratio    $2 = {float(open(\"$WORK/$1.txt.rps\").read())/float(open(\"$WORK/healthz.txt.rps\").read()):.2f}')" \
        | tee -a "$WORK/ratios-$1"
}

echo "wrk: $THREADS threads, $CONNECTIONS connections, ${SECONDS_PER_RUN}s per endpoint, $ROUNDS rounds, server $BIN"
for round in $(seq 1 "$ROUNDS"); do
    run healthz "http://127.0.0.1:$PORT/healthz"
    PUZZLES="$PUZZLES" run solve -s "$WORK/solve.lua" "http://127.0.0.1:$PORT/solve"
    ratio solve "/solve ÷ /healthz"
    if [ "${CONTROL:-0}" = 1 ]; then
        PUZZLES="$WORK/solved-puzzles.txt" run control -s "$WORK/solve.lua" "http://127.0.0.1:$PORT/solve"
        ratio control "/solve (boards already solved) ÷ /healthz"
    fi
done
for name in solve control; do
    [ -f "$WORK/ratios-$name" ] || continue
    python3 -c "import statistics; r = [float(l.split()[-1]) for l in open('$WORK/ratios-$name')]; print(f'median ratio over {len(r)} rounds, $name: {statistics.median(r):.2f} (min {min(r):.2f}, max {max(r):.2f})')"
done
echo "server peak RSS: $(awk '/VmHWM/ {print $2/1024 " MB"}' /proc/$SERVER/status)"

# GNU time's %M: a child's ru_maxrss as Python reads it counts the forked copy of the
# Python process before the exec (13.5 MB where the command peaks at 4-5 MB).
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
SOLVE_STARTED=$(date +%s.%N)
PEAK_KB=$(/usr/bin/time -f %M "$BIN" solve "$PUZZLES" 2>&1 >/dev/null | tail -1)
echo "solve command peak RSS over $(basename "$PUZZLES"): $((PEAK_KB / 1024)).$(((PEAK_KB % 1024) * 10 / 1024)) MB ($(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$SOLVE_STARTED" "$(date +%s.%N)") s, all cores)"
