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
WORK="$(mktemp -d "${TMPDIR:-/tmp}/hodoku-check.XXXXXX")"
# shellcheck source=lib/server.sh
source "$ROOT/scripts/lib/server.sh"

finish() {
    local rc=$?
    stop_release_server
    if [ "$rc" -ne 0 ] && [ -s "$WORK/server.log" ]; then
        echo "[hodoku-check] server log (last 20 lines):" >&2
        tail -n 20 "$WORK/server.log" >&2 || true
    fi
    rm -rf "$WORK"
    exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM

ensure_venv "$VENV" "$ROOT/scripts/peers/requirements-hodoku.txt"
build_release "$ROOT"
start_release_server "$WORK/server.log"
echo "[hodoku-check] server up on $SERVER_URL (pid $SERVER_PID)" >&2
# shellcheck disable=SC2086 # HODOKU_ARGS is a list of words
"$VENV/bin/python" "$ROOT/scripts/peers/hodoku-oracle.py" "$SERVER_URL" ${HODOKU_ARGS:-}
