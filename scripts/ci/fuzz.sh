#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for SECONDS each (default 60):
#
#   parse_body   arbitrary bytes as a /solve or /validate body (parse_json + Board::from_json)
#   parse_batch  arbitrary bytes as a /solve/batch body
#   parse_line   arbitrary bytes as an 81-character line (Grid::from_line, and the wire form)
#   solve_grid   81 bytes mod 10 as a grid: solve, count, analyze and Report::of must agree
#   scan_image   arbitrary bytes as a /scan image: decode within limits, find, warp, read
#
# Needs a nightly toolchain (libFuzzer's sanitizer flags); without one it prints a loud
# SKIPPED and exits 0. Installs cargo-fuzz when missing. Each target starts from the seeds
# in fuzz/seeds/<target>, the regression corpus in tests/data/fuzz/<target>, and what
# earlier runs left in fuzz/corpus/<target> (not committed), with fuzz/json.dict for the
# JSON targets.
#
# Prints, per target, the executions done and whether it crashed; exits 1 if any did.
# Crashing inputs land in fuzz/artifacts/<target>/: reproduce one with
#   cargo +nightly fuzz run <target> fuzz/artifacts/<target>/<file>
# and, once fixed, keep it as a regression in tests/data/fuzz/<target>/ (every target has
# one; tests/api/fuzz.rs replays them all through the router and fails on an empty folder).
# To refresh a kept corpus from a long run: cargo +nightly fuzz cmin <target> <folder>.
#
# Environment:
#   FUZZ_TARGETS  space-separated subset of targets to run (default: all five)
#   FUZZ_JOBS     parallel fuzzing processes per target (default 1)
set -euo pipefail

SECONDS_PER_TARGET="${1:-60}"
if ! [[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] || [ "$SECONDS_PER_TARGET" -lt 1 ]; then
    echo "usage: $0 [SECONDS]   (a whole number of seconds per target, default 60)" >&2
    exit 2
fi
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
FUZZ="$ROOT/fuzz"
TARGETS="${FUZZ_TARGETS:-parse_body parse_batch parse_line solve_grid scan_image}"
JOBS="${FUZZ_JOBS:-1}"

skip() {
    echo
    echo "################################################################"
    echo "##  SKIPPED: fuzzing needs $1"
    echo "##  (install with: rustup toolchain install nightly)"
    echo "################################################################"
    echo
    exit 0
}

command -v rustup >/dev/null 2>&1 || skip "rustup and a nightly toolchain"
rustup toolchain list 2>/dev/null | grep -q '^nightly' || skip "a nightly toolchain"
cargo +nightly --version >/dev/null 2>&1 || skip "a working nightly toolchain"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install --locked cargo-fuzz
fi

cd "$FUZZ"
# The fuzz crate has its own target directory (fuzz/target), whatever the caller set.
unset CARGO_TARGET_DIR
echo "== building the fuzz targets (nightly, sanitizer: address)"
cargo +nightly fuzz build

declare -A RUNS STATUS
failed=0
for target in $TARGETS; do
    corpus="$FUZZ/corpus/$target"
    mkdir -p "$corpus" "$FUZZ/artifacts/$target"
    extra=()
    if [ "$JOBS" -gt 1 ]; then extra+=(-jobs="$JOBS" -workers="$JOBS"); fi
    max_len=4096
    case "$target" in
        parse_body | parse_batch) extra+=(-dict="$FUZZ/json.dict") ;;
        # Images: room for a small photo's JPEG or PNG.
        scan_image) max_len=65536 ;;
    esac
    log="$FUZZ/artifacts/$target/last-run.log"
    echo "== fuzzing $target for ${SECONDS_PER_TARGET}s (log: ${log#"$ROOT"/})"
    set +e
    cargo +nightly fuzz run "$target" "$corpus" "$FUZZ/seeds/$target" \
        "$ROOT/tests/data/fuzz/$target" -- \
        -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
        -max_len="$max_len" -print_final_stats=1 "${extra[@]}" >"$log" 2>&1
    code=$?
    set -e
    # libFuzzer's final stats: "stat::number_of_executed_units: N" (one per job).
    runs=$({ cat "$log" "$FUZZ"/fuzz-*.log 2>/dev/null || true; } |
        awk '/stat::number_of_executed_units/ { s += $2 } END { print s + 0 }')
    rm -f "$FUZZ"/fuzz-*.log
    RUNS[$target]=$runs
    if [ "$code" -eq 0 ]; then
        STATUS[$target]=ok
    else
        STATUS[$target]="CRASHED (exit $code)"
        failed=1
        grep -E 'panicked|ERROR: libFuzzer|SUMMARY|Test unit written' "$log" | head -5 || true
    fi
    echo "   $target: ${RUNS[$target]} executions, ${STATUS[$target]}"
done

echo
echo "== summary (${SECONDS_PER_TARGET}s per target)"
total=0
for target in $TARGETS; do
    printf '   %-12s %12s executions  %s\n' "$target" "${RUNS[$target]}" "${STATUS[$target]}"
    total=$((total + RUNS[$target]))
done
printf '   %-12s %12s executions\n' total "$total"
exit "$failed"
