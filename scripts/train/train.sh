#!/usr/bin/env bash
# Trains the cell classifier of crates/sudoku-scan from the dataset's training splits and
# rendered font digits, writes crates/sudoku-scan/model/cells.safetensors and prints its
# SHA-256. Deterministic: a fixed seed and one thread give the same file on the same machine.
# Usage: scripts/train/train.sh [EPOCHS]   (CI never runs it)
set -euo pipefail
cd "$(dirname "$0")/../.."
epochs="${1:-4}"
# The fonts the rendered digits come from (Debian's packages).
if ! fc-list 2>/dev/null | grep -q DejaVuSans.ttf || ! fc-list | grep -q LiberationSans-Regular; then
    apt-get update -qq && apt-get install -y -qq fonts-dejavu-core fonts-dejavu-extra fonts-liberation >/dev/null
fi
out=crates/sudoku-scan/model/cells.safetensors
RAYON_NUM_THREADS=1 cargo run --locked --profile train -p sudoku-scan --example train -- "$out.new" "$epochs"
mv "$out.new" "$out"
sha256sum "$out"
