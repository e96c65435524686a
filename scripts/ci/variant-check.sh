#!/usr/bin/env bash
# Checks the general engine (other sizes and the variant rules) against Google OR-tools
# CP-SAT (scripts/peers/cpsat-oracle.py):
#
#   1. installs OR-tools if missing (a virtualenv under ~/.cache holding the pinned
#      scripts/peers/requirements-cpsat.txt);
#   2. builds the release binary (honours CARGO_TARGET_DIR) and starts it on a free
#      127.0.0.1 port (stopped on exit);
#   3. runs the oracle against it: every board of the committed sets of other sizes and
#      variants (data/sizes but Gecode's 25x25s, which are beyond CP-SAT's minute; every
#      set of data/variants, the generator's 25x25s among them),
#      then seeded random boards of sides 4 to 12 under random mixes of the rules, each
#      answer of /solve and /validate compared with CP-SAT's count.
#
# Environment:
#   CPSAT_VENV   the virtualenv to use (default ~/.cache/sudoku-service-cpsat-venv)
#   CPSAT_ARGS   more arguments for the oracle (e.g. "--cases 1000 --seed 7 --verbose")
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VENV="${CPSAT_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sudoku-service-cpsat-venv}"
# shellcheck source=lib/server.sh
source "$ROOT/scripts/lib/server.sh"
# shellcheck disable=SC2086 # CPSAT_ARGS is a list of words
run_oracle variant-check "$ROOT" "$VENV" "$ROOT/scripts/peers/requirements-cpsat.txt" \
    "$ROOT/scripts/peers/cpsat-oracle.py" \
    --set "$ROOT"/data/sizes/gecode_9x9 "$ROOT"/data/sizes/gecode_16x16 "$ROOT"/data/variants/*.jsonl \
    ${CPSAT_ARGS:-}
