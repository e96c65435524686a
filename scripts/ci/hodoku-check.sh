#!/usr/bin/env bash
# Checks the service's hints and grades against HoDoKu (scripts/peers/hodoku-oracle.py):
#
#   1. installs hodoku-py if missing (a virtualenv under ~/.cache holding the pinned
#      scripts/peers/requirements-hodoku.txt);
#   2. builds the release binary (honours CARGO_TARGET_DIR) and starts it on a free
#      127.0.0.1 port (stopped on exit);
#   3. runs the oracle against it, which fails on a hint of ours that is not true of the
#      solution where HoDoKu's is, on a non-single where HoDoKu's hint is a single, or on
#      an agreement rate below its floor.
#
# Environment:
#   HODOKU_VENV   the virtualenv to use (default ~/.cache/sudoku-service-hodoku-venv)
#   HODOKU_ARGS   more arguments for the oracle (e.g. "--scale 0.1 --verbose")
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VENV="${HODOKU_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sudoku-service-hodoku-venv}"
# shellcheck source=lib/server.sh
source "$ROOT/scripts/lib/server.sh"
# shellcheck disable=SC2086 # HODOKU_ARGS is a list of words
run_oracle hodoku-check "$ROOT" "$VENV" "$ROOT/scripts/peers/requirements-hodoku.txt" \
    "$ROOT/scripts/peers/hodoku-oracle.py" ${HODOKU_ARGS:-}
