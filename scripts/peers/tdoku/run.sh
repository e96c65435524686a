#!/usr/bin/env bash
# Times tdoku, the fastest published solver we know of, beside sudoku-service on this
# machine, on every puzzle set: whole processes pinned to one core, median of RUNS
# interleaved runs (scripts/bench/speed_ratio.py), then each in-process (best of 5 passes).
#
# usage: scripts/peers/tdoku/run.sh TDOKU_CHECKOUT [RUNS] [SET...]
#   TDOKU_CHECKOUT  a clone of https://github.com/t-dillon/tdoku (BSD-2-Clause); it is
#                   compiled into TARGET/tdoku-peer/ and never becomes part of the project
#   RUNS            runs per set (default 7)
#   SET             puzzle files (default: every set in data/puzzles)
#
# The same work on both sides: ours (`solve -t 1`, `examples/throughput`) proves uniqueness
# and returns the solution, one search counting up to 2; so does the driver's `plain`
# variant (tdoku's enumeration with a limit of 2, the first solution it reports kept).
# tdoku's usual entry point cannot do that in one search: with a limit of 2 it keeps a
# solution only when it finds a second, so for a unique puzzle it hands back none (see
# driver.cc). Its count-only run, the cheapest uniqueness proof it has and less work than
# ours, is timed in-process too, in the last column, to show what handing back the
# solution costs it. Before each timing the two sides' verdicts (unique / multiple / none)
# are compared, and the run stops if they differ.
#
# tdoku is built the way its own benchmarks build it at their best: clang, -O3
# -march=native, profile-guided (trained on the first 2,000 puzzles of each set) when
# llvm-profdata is there; g++ -O3 -march=native otherwise. Ours is the release build,
# for baseline x86-64, exactly as shipped. Ratios above 1 mean ours is faster.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
TDOKU="$(cd "${1:?usage: run.sh TDOKU_CHECKOUT [RUNS] [SET...]}" && pwd)"
RUNS="${2:-7}"
shift $(($# < 2 ? $# : 2))
SETS=("$@")
if [ ${#SETS[@]} -eq 0 ]; then
  for f in "$ROOT"/data/puzzles/*; do
    case "$f" in *.md | *.ratings) ;; *) SETS+=("$f") ;; esac
  done
fi

cd "$ROOT"
TARGET="$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
OUT="$TARGET/tdoku-peer"
mkdir -p "$OUT"
SOURCES=("$ROOT/scripts/peers/tdoku/driver.cc" "$TDOKU/src/solver_dpll_triad_simd.cc" "$TDOKU/src/util.cc")
FLAGS=(-O3 -march=native -std=c++17 -I "$TDOKU/src")
if command -v clang++ >/dev/null && command -v llvm-profdata >/dev/null; then
  clang++ "${FLAGS[@]}" -fprofile-instr-generate -o "$OUT/driver-train" "${SOURCES[@]}"
  for f in "${SETS[@]}"; do awk '!/^#/ && n++ < 2000' "$f"; done >"$OUT/train.txt"
  rm -f "$OUT/train.profraw"
  LLVM_PROFILE_FILE="$OUT/train.profraw" "$OUT/driver-train" bench plain 1 "$OUT/train.txt" >/dev/null
  llvm-profdata merge -o "$OUT/train.profdata" "$OUT/train.profraw"
  clang++ "${FLAGS[@]}" -fprofile-instr-use="$OUT/train.profdata" -o "$OUT/driver" "${SOURCES[@]}"
  echo "tdoku: $(clang++ --version | head -1), -O3 -march=native, profile-guided"
else
  g++ "${FLAGS[@]}" -o "$OUT/driver" "${SOURCES[@]}"
  echo "tdoku: $(g++ --version | head -1), -O3 -march=native"
fi
cargo build --release --locked --quiet --bin sudoku-service
cargo build --release --locked --quiet -p sudoku --example throughput
OURS="$TARGET/release/sudoku-service"
echo "ours: $OURS ($(git -C "$ROOT" rev-parse --short HEAD)); $(uptime)"

# "unique N, multiple N, none N" from each side's summary on stderr.
verdicts() { grep -oE 'unique [0-9]+, multiple [0-9]+, none [0-9]+'; }

echo "| set | ours, puzzles/s | tdoku, puzzles/s | ratio, whole process | ratio, in-process | ratio in-process vs tdoku count-only |"
echo "|---|---:|---:|---:|---:|---:|"
rate() { sed -E 's/.* ([0-9]+) puzzles\/s.*/\1/'; }
for f in "${SETS[@]}"; do
  ours_verdicts=$("$OURS" solve -t 1 "$f" 2>&1 >/dev/null | verdicts)
  tdoku_verdicts=$("$OUT/driver" plain "$f" 2>&1 >/dev/null | verdicts)
  if [ "$ours_verdicts" != "$tdoku_verdicts" ]; then
    echo "$(basename "$f"): ours say $ours_verdicts, tdoku $tdoku_verdicts" >&2
    exit 1
  fi
  # ours_seconds tdoku_seconds ratio ours_puzzles_per_second
  read -r _ _ ratio ours_rate < <(python3 "$ROOT/scripts/bench/speed_ratio.py" "$RUNS" "$f" \
    -- "$OURS" solve -t 1 -- "$OUT/driver" plain)
  # From the ratio rather than the seconds, which speed_ratio.py rounds to milliseconds.
  tdoku_rate=$(python3 -c "print(round($ours_rate / $ratio))")
  ours_in=$(taskset -c 1 "$TARGET/release/examples/throughput" -n 5 "$f" | rate)
  tdoku_in=$(taskset -c 1 "$OUT/driver" bench plain 5 "$f" | rate)
  tdoku_count=$(taskset -c 1 "$OUT/driver" bench count 5 "$f" | rate)
  in_ratio=$(python3 -c "print(f'{$ours_in / $tdoku_in:.2f}')")
  count_ratio=$(python3 -c "print(f'{$ours_in / $tdoku_count:.2f}')")
  echo "| $(basename "$f") | $ours_rate | $tdoku_rate | $ratio | $in_ratio | $count_ratio |"
done
