#!/usr/bin/env bash
# User-space instructions and allocations per request, GET /healthz and POST /solve
# (17-clue, a different puzzle each), as BENCHMARKS.md's HTTP sections count them: the
# server as shipped under valgrind's callgrind, 200 warm-up requests of each kind, the
# counters zeroed, then exactly N of each on one keep-alive connection, a dump after each;
# every thread's instructions (the log writer's included) divided by N.
#
#   scripts/bench/http-instructions.sh [BINARY] [N]   (defaults: this tree's release build, 2000)
#
# Repeated runs of one build differ by about ±500 instructions (ids, hash seeds, timers).
# A measurement, not a test: CI does not run it.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
if [ -n "${1:-}" ]; then
    BIN="$1"
else
    cargo build --release --locked --quiet
    BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/sudoku-service"
fi
N="${2:-2000}"
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }

# shellcheck source=lib/server.sh
source "$ROOT/scripts/lib/server.sh"
PORT="$(free_port)"
WORK="$(mktemp -d)"
valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.%p" "$BIN" --listen "127.0.0.1:$PORT" \
    >"$WORK/server.log" 2>&1 &
VG=$!
trap 'kill $VG 2>/dev/null || true; rm -rf "$WORK"' EXIT
wait_for_healthz "http://127.0.0.1:$PORT" "$VG" 100 0.3 ||
    { echo "http-instructions: no answer on /healthz within 30 s" >&2; exit 1; }

requests() { # path, count: that many requests on one connection, each answered 200
    python3 - "$PORT" "$1" "$2" "$ROOT/data/puzzles/puzzles2_17_clue" <<'PY'
import http.client, sys
port, path, n, file = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
puzzles = [l.strip() for l in open(file) if len(l.strip()) == 81 and not l.startswith('#')]
connection = http.client.HTTPConnection('127.0.0.1', port)
for i in range(n):
    if path == '/healthz':
        connection.request('GET', path)
    else:
        connection.request('POST', path, body='{"board":"%s"}' % puzzles[i % len(puzzles)],
                           headers={'Content-Type': 'application/json'})
    answer = connection.getresponse()
    body = answer.read()
    assert answer.status == 200, (answer.status, body)
PY
}

requests /healthz 200
requests /solve 200
callgrind_control -z "$VG" >/dev/null 2>&1
requests /healthz "$N"
callgrind_control -d healthz "$VG" >/dev/null 2>&1
requests /solve "$N"
callgrind_control -d solve "$VG" >/dev/null 2>&1
callgrind_control -k "$VG" >/dev/null 2>&1 || true
wait "$VG" 2>/dev/null || true

for dump in "$WORK"/cg.*.1 "$WORK"/cg.*.2; do
    python3 - "$dump" "$N" <<'PY'
import re, sys
path, n = sys.argv[1], int(sys.argv[2])
names, calls, callee = {}, {}, None
endpoint, total = "?", 0
for line in open(path):
    if line.startswith("desc: Trigger"):
        endpoint = line.split()[-1]
    elif line.startswith("summary:"):
        total = int(line.split()[1])
    m = re.match(r"cfn=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(2):
            names[m.group(1)] = m.group(2).strip()
        callee = names.get(m.group(1))
        continue
    m = re.match(r"fn=\((\d+)\) (.*)", line)
    if m:
        names[m.group(1)] = m.group(2).strip()
    m = re.match(r"calls=(\d+)", line)
    if m and callee:
        calls[callee] = calls.get(callee, 0) + int(m.group(1))
mallocs = sum(v for k, v in calls.items() if k == "malloc" or k.startswith("malloc'"))
print(f"{endpoint:8s} {total / n:9.0f} instructions/request  {mallocs / n:6.1f} allocations/request")
PY
done
