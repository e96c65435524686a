#!/usr/bin/env bash
# Times tdoku, the fastest published solver we know of, beside sudoku-service on this
# machine, on every puzzle set: whole processes pinned to one core, median of RUNS
# interleaved runs (scripts/speed_ratio.py), then each in-process (best of 5 passes).
#
# usage: scripts/tdoku-peer/run.sh TDOKU_CHECKOUT [RUNS] [SET...]
#   TDOKU_CHECKOUT  a clone of https://github.com/t-dillon/tdoku (BSD-2-Clause); it is
#                   compiled into target/tdoku-peer/ and never becomes part of the project
#   RUNS            runs per set (default 7)
#   SET             puzzle files (default: every set in data/puzzles)
#
# tdoku is built the way its own benchmarks build it at their best: clang, -O3
# -march=native, profile-guided (trained on the first 2,000 puzzles of each set) when
# llvm-profdata is there; g++ -O3 -march=native otherwise. Ours is the release build,
# for baseline x86-64, exactly as shipped. Ratios above 1 mean ours is faster.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TDOKU="$(cd "${1:?usage: run.sh TDOKU_CHECKOUT [RUNS] [SET...]}" && pwd)"
RUNS="${2:-7}"
shift $(($# < 2 ? $# : 2))
SETS=("$@")
if [ ${#SETS[@]} -eq 0 ]; then
  for f in "$ROOT"/data/puzzles/*; do
    case "$f" in *.md | *.ratings) ;; *) SETS+=("$f") ;; esac
  done
fi

OUT="$ROOT/target/tdoku-peer"
mkdir -p "$OUT"
SOURCES=("$ROOT/scripts/tdoku-peer/driver.cc" "$TDOKU/src/solver_dpll_triad_simd.cc" "$TDOKU/src/util.cc")
FLAGS=(-O3 -march=native -std=c++17 -I "$TDOKU/src")
if command -v clang++ >/dev/null && command -v llvm-profdata >/dev/null; then
  clang++ "${FLAGS[@]}" -fprofile-instr-generate -o "$OUT/driver-train" "${SOURCES[@]}"
  for f in "${SETS[@]}"; do awk '!/^#/ && n++ < 2000' "$f"; done >"$OUT/train.txt"
  LLVM_PROFILE_FILE="$OUT/train.profraw" "$OUT/driver-train" bench 1 "$OUT/train.txt" >/dev/null
  llvm-profdata merge -o "$OUT/train.profdata" "$OUT/train.profraw"
  clang++ "${FLAGS[@]}" -fprofile-instr-use="$OUT/train.profdata" -o "$OUT/driver" "${SOURCES[@]}"
  echo "tdoku: $(clang++ --version | head -1), -O3 -march=native, profile-guided"
else
  g++ "${FLAGS[@]}" -o "$OUT/driver" "${SOURCES[@]}"
  echo "tdoku: $(g++ --version | head -1), -O3 -march=native"
fi
(cd "$ROOT" && cargo build --release --quiet --bin sudoku-service --example throughput)
OURS="$ROOT/target/release/sudoku-service"

echo "| set | ours, puzzles/s | tdoku, puzzles/s | ratio, whole process | ratio, in-process |"
echo "|---|---:|---:|---:|---:|"
rate() { sed -E 's/.* ([0-9]+) puzzles\/s.*/\1/'; }
for f in "${SETS[@]}"; do
  # ours_seconds tdoku_seconds ratio ours_puzzles_per_second
  read -r _ _ ratio ours_rate < <(python3 "$ROOT/scripts/speed_ratio.py" "$RUNS" "$f" \
    -- "$OURS" solve -t 1 -- "$OUT/driver" plain)
  # From the ratio rather than the seconds, which speed_ratio.py rounds to milliseconds.
  tdoku_rate=$(python3 -c "print(round($ours_rate / $ratio))")
  ours_in=$(taskset -c 1 "$ROOT/target/release/examples/throughput" -n 5 "$f" | rate)
  tdoku_in=$(taskset -c 1 "$OUT/driver" bench 5 "$f" | rate)
  in_ratio=$(python3 -c "print(f'{$ours_in / $tdoku_in:.2f}')")
  echo "| $(basename "$f") | $ours_rate | $tdoku_rate | $ratio | $in_ratio |"
done
