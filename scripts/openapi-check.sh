#!/usr/bin/env bash
# Checks that openapi.yaml is a valid OpenAPI 3.1 document and that the real
# server keeps to it:
#
#   1. installs the tools if missing (a virtualenv under ~/.cache holding the
#      pinned scripts/requirements-openapi.txt);
#   2. lints the spec with openapi-spec-validator, then with Redocly's CLI
#      when npx can fetch it (skipped with a note otherwise);
#   3. builds the release binary (honours CARGO_TARGET_DIR);
#   4. starts the server on a free 127.0.0.1 port (killed on exit), waits for
#      /healthz, and checks that GET /openapi.yaml serves this very file;
#   5. runs schemathesis with every check against it (examples, coverage and
#      fuzzing phases) and fails on any failure.
#
# Environment:
#   OPENAPI_MAX_EXAMPLES  test cases per operation in the fuzzing phase (default 150)
#   OPENAPI_SEED          fix schemathesis's random seed (default: a fresh one, printed)
#   OPENAPI_MAX_TIME      fuzz for this many seconds instead (schemathesis's
#                         --max-time: fuzzing repeats until the time is spent)
#   OPENAPI_SKIP_REDOCLY=1  skip the Redocly lint
#   OPENAPI_SKIP_FUZZ=1   lint only: no build, no server, no schemathesis
#   OPENAPI_VENV          the virtualenv to use (default ~/.cache/sudoku-service-openapi-venv)
#   OPENAPI_REPORT_DIR    also write a JUnit report there
#
# Prints PASS/FAIL per step and a closing "N passed, N failed" line.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SPEC="$ROOT/openapi.yaml"
REQUIREMENTS="$ROOT/scripts/requirements-openapi.txt"
VENV="${OPENAPI_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sudoku-service-openapi-venv}"
REDOCLY="@redocly/cli@2.77.0"
MAX_EXAMPLES="${OPENAPI_MAX_EXAMPLES:-150}"

passed=0
failed=0
t_start=$SECONDS
declare -a summary=()
WORK="$(mktemp -d "${TMPDIR:-/tmp}/openapi-check.XXXXXX")"
# shellcheck source=lib/server.sh
source "$ROOT/scripts/lib/server.sh"

log() { printf '[openapi-check] %s\n' "$*" >&2; }
pass() { passed=$((passed + 1)); summary+=("PASS  $*"); printf 'PASS  %s\n' "$*"; }
fail() { failed=$((failed + 1)); summary+=("FAIL  $*"); printf 'FAIL  %s\n' "$*"; }

finish() {
    local rc=$?
    stop_release_server
    if [ "$failed" -gt 0 ] && [ -s "$WORK/server.log" ]; then
        log "server log (last 20 lines):"
        tail -n 20 "$WORK/server.log" >&2 || true
    fi
    rm -rf "$WORK"
    echo
    echo "=== openapi check summary ($((SECONDS - t_start)) s) ==="
    printf '%s\n' "${summary[@]}"
    if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
        failed=1
        echo "FAIL  aborted (exit $rc) before all checks ran"
    fi
    echo "openapi: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] || exit 1
    exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM

# --- tools --------------------------------------------------------------------
t=$SECONDS
ensure_venv "$VENV" "$REQUIREMENTS" || { fail "tools: installing $REQUIREMENTS"; exit 1; }
pass "tools: schemathesis $("$VENV/bin/schemathesis" --version | awk '{print $NF}'), openapi-spec-validator ready ($((SECONDS - t)) s)"

# --- lint ---------------------------------------------------------------------
if "$VENV/bin/openapi-spec-validator" "$SPEC"; then
    pass "lint: openapi-spec-validator (OpenAPI 3.1 schema)"
else
    fail "lint: openapi-spec-validator"
fi

if [ "${OPENAPI_SKIP_REDOCLY:-0}" = 1 ]; then
    log "Redocly lint skipped (OPENAPI_SKIP_REDOCLY=1)"
elif ! command -v npx >/dev/null; then
    log "Redocly lint skipped: npx is not installed"
elif ! (cd "$WORK" && timeout 180 npx --yes "$REDOCLY" --version) >/dev/null 2>&1; then
    log "Redocly lint skipped: npx could not fetch $REDOCLY"
else
    # Rules off, and why: 404 and 405 are answered for unknown paths and methods,
    # so their components are documented without an operation to hang them on, and
    # the probes (GET) have no 4xx of their own.
    if (cd "$WORK" && NO_UPDATE_NOTIFIER=1 REDOCLY_TELEMETRY=off timeout 180 npx --yes "$REDOCLY" lint \
        --skip-rule no-unused-components --skip-rule operation-4xx-response \
        "$SPEC") >"$WORK/redocly.log" 2>&1; then
        pass "lint: redocly $(grep -Eo 'Woohoo!.*|validated in [0-9]+ms' "$WORK/redocly.log" | head -1)"
    else
        grep -v '^\s*[║╔╚]' "$WORK/redocly.log" | tail -40 >&2
        fail "lint: redocly"
    fi
fi

if [ "${OPENAPI_SKIP_FUZZ:-0}" = 1 ]; then
    log "build, server and schemathesis skipped (OPENAPI_SKIP_FUZZ=1)"
    exit 0
fi

# --- build and server -----------------------------------------------------------
t=$SECONDS
if ! start_release_server "$ROOT" "$WORK/server.log"; then
    fail "build and server: ${SERVER_BIN:-cargo build --release} (log above)"
    exit 1
fi
URL="$SERVER_URL"
pass "build and server: $SERVER_BIN up on $URL (pid $SERVER_PID, $((SECONDS - t)) s)"

if curl -fsS --max-time 5 "$URL/openapi.yaml" | cmp -s - "$SPEC"; then
    pass "server: GET /openapi.yaml serves this openapi.yaml"
else
    fail "server: GET /openapi.yaml differs from openapi.yaml (stale build?)"
fi

# --- schemathesis -------------------------------------------------------------
# A board can be well formed (all the schema can say) and still have no
# solution, which /solve rightly answers with 422: so valid data may get 200 or
# 422. Everything else keeps schemathesis's defaults; 5xx always fails.
cat >"$WORK/schemathesis.toml" <<'EOF'
[checks.positive_data_acceptance]
expected-statuses = ["200", "422"]
EOF
time_args=()
[ -n "${OPENAPI_MAX_TIME:-}" ] && time_args=(--max-time "$OPENAPI_MAX_TIME")
seed_args=()
[ -n "${OPENAPI_SEED:-}" ] && seed_args=(--seed "$OPENAPI_SEED")
report_args=()
if [ -n "${OPENAPI_REPORT_DIR:-}" ]; then
    mkdir -p "$OPENAPI_REPORT_DIR"
    report_args=(--report junit --report-dir "$OPENAPI_REPORT_DIR")
fi
t=$SECONDS
log "schemathesis run --checks all --max-examples $MAX_EXAMPLES against $URL"
if (cd "$WORK" && "$VENV/bin/schemathesis" --config-file "$WORK/schemathesis.toml" run "$SPEC" \
    --url "$URL" \
    --checks all \
    --phases examples,coverage,fuzzing \
    --max-examples "$MAX_EXAMPLES" \
    --request-timeout 15 \
    --generation-database none \
    --no-color \
    "${time_args[@]}" "${seed_args[@]}" "${report_args[@]}"); then
    pass "schemathesis: --checks all, no failures ($((SECONDS - t)) s)"
else
    fail "schemathesis: failures above ($((SECONDS - t)) s)"
fi
