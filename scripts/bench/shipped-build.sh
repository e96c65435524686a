#!/usr/bin/env bash
# Builds sudoku-service as the Dockerfile's build stage does (the C runtime linked in
# statically, for this machine's target triple), installs it as the image does, and prints
# the installed binary's path: the container's binary, for benchmarks on a machine without
# a container engine.
#
#   scripts/bench/shipped-build.sh        (prints e.g. .../target/shipped/sudoku-service)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
TRIPLE="$(rustc -vV | sed -n 's/^host: //p')"
TARGET_DIR="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
RUSTFLAGS="-C target-feature=+crt-static" \
    cargo build --release --locked --quiet --target "$TRIPLE" --bin sudoku-service
install -D -m 0755 "$TARGET_DIR/$TRIPLE/release/sudoku-service" "$TARGET_DIR/shipped/sudoku-service"
if ldd "$TARGET_DIR/shipped/sudoku-service" 2>/dev/null | grep -q '=>'; then
    echo "shipped-build: the binary is dynamically linked" >&2
    exit 1
fi
echo "$TARGET_DIR/shipped/sudoku-service"
