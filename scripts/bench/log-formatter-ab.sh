#!/usr/bin/env bash
# Two builds of the server under load-bench.sh in interleaved rounds (A B A B ...), one
# round of each per log format, as shipped (RUST_LOG=info, a line per /solve request):
# json is what deploy/kubernetes sets, text the binary's and the image's default. On a
# shared machine only interleaving makes the two comparable.
#
#   scripts/bench/log-formatter-ab.sh A_BIN B_BIN [ROUNDS] [SECONDS] [FORMATS]
#       (defaults: 5 rounds, 10 s per endpoint, "json text")
#
# Prints one tab-separated line per round and endpoint: format, round, build, endpoint,
# requests/s, p50 ms, p99 ms, the 1-minute load average before the round; then the medians.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
A_BIN="$1"
B_BIN="$2"
ROUNDS="${3:-5}"
SECONDS_PER_RUN="${4:-10}"
FORMATS="${5:-json text}"
OUT="$(mktemp)"
trap 'rm -f "$OUT"' EXIT

printf 'format\tround\tbuild\tendpoint\treq/s\tp50_ms\tp99_ms\tload1\n'
for round in $(seq 1 "$ROUNDS"); do
    for format in $FORMATS; do
        for build in A B; do
            bin=$A_BIN
            [ "$build" = B ] && bin=$B_BIN
            load="$(cut -d' ' -f1 /proc/loadavg)"
            RUST_LOG=info SUDOKU_LOG_FORMAT="$format" SERVER_BIN="$bin" \
                "$ROOT/scripts/bench/load-bench.sh" "$SECONDS_PER_RUN" 32 1 |
                awk -v f="$format" -v r="$round" -v b="$build" -v l="$load" \
                    '$3 == "req/s" && ($1 == "healthz" || $1 == "solve") {
                        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f, r, b, $1, $2, $5, $8, l }'
        done
    done
done | tee "$OUT"

python3 - "$OUT" <<'PY'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
groups = {}
for fmt, _round, build, endpoint, rps, _p50, p99, _load in rows:
    groups.setdefault((fmt, endpoint, build), []).append((float(rps), float(p99)))
for (fmt, endpoint, build), values in sorted(groups.items()):
    rps = [v[0] for v in values]
    p99 = [v[1] for v in values]
    print(f"median {fmt:4s} {endpoint:7s} {build}: {statistics.median(rps):8.0f} req/s"
          f" (min {min(rps):.0f}, max {max(rps):.0f})  p99 {statistics.median(p99):.3f} ms"
          f" (min {min(p99):.3f}, max {max(p99):.3f})  n={len(values)}")
PY
