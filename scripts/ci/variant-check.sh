#!/usr/bin/env bash
# Checks the general engine (other sizes and the variant rules) against Google OR-tools
# CP-SAT (scripts/peers/cpsat-oracle.py):
#
#   1. installs OR-tools if missing (a virtualenv under ~/.cache holding the pinned
#      scripts/peers/requirements-cpsat.txt);
#   2. builds the release binary (honours CARGO_TARGET_DIR) and starts it on a free
#      127.0.0.1 port (stopped on exit);
#   3. runs the oracle against it: seeded random boards of sides 4 to 12 under random
#      mixes of the rules, each answer of /solve and /validate compared with CP-SAT's count.
#
# Environment:
#   CPSAT_VENV   the virtualenv to use (default ~/.cache/sudoku-service-cpsat-venv)
#   CPSAT_ARGS   more arguments for the oracle (e.g. "--cases 1000 --seed 7 --verbose")
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VENV="${CPSAT_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sudoku-service-cpsat-venv}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/variant-check.XXXXXX")"
# shellcheck source=lib/server.sh
source "$ROOT/scripts/lib/server.sh"

finish() {
    local rc=$?
    stop_release_server
    if [ "$rc" -ne 0 ] && [ -s "$WORK/server.log" ]; then
        echo "[variant-check] server log (last 20 lines):" >&2
        tail -n 20 "$WORK/server.log" >&2 || true
    fi
    rm -rf "$WORK"
    exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM

ensure_venv "$VENV" "$ROOT/scripts/peers/requirements-cpsat.txt"
build_release "$ROOT"
start_release_server "$WORK/server.log"
echo "[variant-check] server up on $SERVER_URL (pid $SERVER_PID)" >&2
# shellcheck disable=SC2086 # CPSAT_ARGS is a list of words
"$VENV/bin/python" "$ROOT/scripts/peers/cpsat-oracle.py" "$SERVER_URL" ${CPSAT_ARGS:-}
