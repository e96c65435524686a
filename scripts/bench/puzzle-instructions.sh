#!/usr/bin/env bash
# Instructions a puzzle, by callgrind, over the first puzzles of each committed set:
# `examples/throughput -n 1` (release) counts every puzzle's solutions and then analyzes it
# once, so the total is halved per puzzle. Counts are the same every run, unlike times, so two
# builds compare exactly: pass each one's throughput binary.
#
#   scripts/bench/puzzle-instructions.sh [THROUGHPUT_BINARY]   (default: this tree's, built)
#
# A measurement, not a test: CI does not run it.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
if [ -n "${1:-}" ]; then
    BIN="$1"
else
    cargo build --release --locked --quiet -p sudoku --example throughput
    BIN="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/examples/throughput"
fi
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
printf '%-34s %8s %14s\n' set puzzles instructions/puzzle
for entry in msolve_hardest_to_solve:300 "puzzles5_forum_hardest_1905_11+:500" \
    puzzles3_magictour_top1465:500 puzzles2_17_clue:2000 puzzles7_serg_benchmark:2000 \
    sudoku_exchange_diabolical:2000; do
    set_name="${entry%%:*}"
    count="${entry##*:}"
    awk -v n="$count" '/^[0-9.]+$/ && length($0) == 81 && taken < n { print; taken++ }' \
        "data/puzzles/$set_name" >"$WORK/puzzles"
    count="$(wc -l <"$WORK/puzzles")"
    total="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" -n 1 "$WORK/puzzles" 2>&1 >/dev/null |
        sed -n 's/^==[0-9]*== Collected : //p')"
    printf '%-34s %8d %14.0f\n' "$set_name" "$count" "$(awk -v t="$total" -v c="$count" 'BEGIN { print t / (2 * c) }')"
done
