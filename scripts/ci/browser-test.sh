#!/usr/bin/env bash
# The web playground (GET /) in a real browser: Debian's Chromium driven by playwright-core
# against the release server (or the profile SUDOKU_PROFILE names) on a free loopback port. Installs Chromium through apt when it
# is missing (never a browser download), runs `node --test tests/browser/`, stops the
# server, and exits non-zero when any test fails. Screenshots land in target/playground/.
set -euo pipefail
cd "$(dirname "$0")/../.."

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
"$CHROMIUM" --version 2>/dev/null
command -v node >/dev/null || {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
}
node --version

# playwright-core ships no browser and downloads none; the variable makes sure of it.
(cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)

# shellcheck source=scripts/lib/server.sh
. scripts/lib/server.sh
build_release "$PWD"
BIN=$SERVER_BIN

PORT=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => {
    console.log(s.address().port); s.close(); });')
LOG=$(mktemp)
"$BIN" --listen "127.0.0.1:$PORT" >"$LOG" 2>&1 &
SERVER=$!
stop_server() {
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    rm -f "$LOG"
}
trap stop_server EXIT

# Ready when /healthz answers; 10 s at most.
ready=false
for _ in $(seq 100); do
    if node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' \
        "http://127.0.0.1:$PORT/healthz"; then
        ready=true
        break
    fi
    kill -0 "$SERVER" 2>/dev/null || break
    sleep 0.1
done
if [ "$ready" != true ]; then
    cat "$LOG" >&2
    echo "the server on 127.0.0.1:$PORT did not become ready" >&2
    exit 1
fi

rm -rf target/playground
status=0
PLAYGROUND_URL="http://127.0.0.1:$PORT" SUDOKU_BIN="$BIN" CHROMIUM="$CHROMIUM" \
    node --test --test-concurrency=1 tests/browser/ || status=$?

if [ -d target/playground ]; then
    echo "screenshots:"
    ls -1 target/playground/*.png | sed 's/^/  /'
fi
if [ "$status" -ne 0 ]; then
    echo "--- server log (last 50 lines)" >&2
    tail -n 50 "$LOG" >&2
fi
exit "$status"
