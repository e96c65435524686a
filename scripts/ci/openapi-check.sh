#!/usr/bin/env bash
# Checks that openapi.yaml is a valid OpenAPI 3.1 document and that the real
# server keeps to it:
#
#   1. installs the tools if missing (a virtualenv under ~/.cache holding the
#      pinned scripts/ci/requirements-openapi.txt);
#   2. lints the spec with openapi-spec-validator, then with Redocly's CLI
#      when npx can fetch it (skipped with a note otherwise);
#   3. builds the release binary (honours CARGO_TARGET_DIR);
#   4. starts the server on a free 127.0.0.1 port (killed on exit), waits for
#      /healthz, and checks that GET /openapi.yaml serves this very file;
#   5. runs schemathesis with every check against it (examples, coverage and
#      fuzzing phases) and fails on any failure;
#   6. starts it again with API keys on (a fresh key in a keys file) and a rate
#      limit far above the run's requests, checks that a request without a key
#      gets 401, and runs schemathesis again with the key sent (-H).
#
# Environment:
#   OPENAPI_MAX_EXAMPLES  test cases per operation in the fuzzing phase (default 150)
#   OPENAPI_SEED          fix schemathesis's random seed (default: a fresh one, printed)
#   OPENAPI_MAX_TIME      fuzz for this many seconds instead (schemathesis's
#                         --max-time: fuzzing repeats until the time is spent)
#   OPENAPI_SKIP_REDOCLY=1  skip the Redocly lint
#   OPENAPI_SKIP_FUZZ=1   lint only: no build, no server, no schemathesis
#   OPENAPI_VENV          the virtualenv to use (default ~/.cache/sudoku-service-openapi-venv)
#   OPENAPI_REPORT_DIR    also write JUnit reports there (one folder per run)
#
# Prints PASS/FAIL per step and a closing "N passed, N failed" line.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SPEC="$ROOT/openapi.yaml"
REQUIREMENTS="$ROOT/scripts/ci/requirements-openapi.txt"
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
PY="$VENV/bin/python"
pass "tools: schemathesis $("$VENV/bin/schemathesis" --version | awk '{print $NF}'), openapi-spec-validator ready ($((SECONDS - t)) s)"

# --- lint ---------------------------------------------------------------------
if "$VENV/bin/openapi-spec-validator" "$SPEC"; then
    pass "lint: openapi-spec-validator (OpenAPI 3.1 schema)"
else
    fail "lint: openapi-spec-validator"
fi

# Every operation that needs a key when keys are on documents 401, and all of
# them but /metrics (which costs nothing) 429: a new route must say both.
if "$PY" - "$SPEC" <<'PY'
import sys, yaml
spec = yaml.safe_load(open(sys.argv[1]))
default = spec.get("security", [])
missing = []
for path, item in spec["paths"].items():
    for method, op in item.items():
        if method not in ("get", "post", "put", "patch", "delete"):
            continue
        if op.get("security", default) == []:
            continue
        codes = set(op.get("responses", {}))
        wanted = {"401"} if path == "/metrics" else {"401", "429"}
        missing += [f"{method.upper()} {path}: no {code}" for code in sorted(wanted - codes)]
print("\n".join(missing) or "every keyed operation documents 401 and 429")
sys.exit(1 if missing else 0)
PY
then
    pass "lint: every operation behind the keys documents 401 (and 429 where it costs)"
else
    fail "lint: 401/429 missing (above)"
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

# --- build --------------------------------------------------------------------
t=$SECONDS
build_release "$ROOT" || { fail "build: cargo build --release"; exit 1; }
BIN="$SERVER_BIN"
pass "build: $BIN ($((SECONDS - t)) s)"

# --- servers and schemathesis --------------------------------------------------
# A board can be well formed (all the schema can say) and still have no
# solution, which /solve rightly answers with 422: so valid data may get 200 or
# 422. Data the schema refuses may also be larger than the body limit, and 413 is a
# refusal like the others (schemathesis's default list lacks it). Everything else keeps
# schemathesis's defaults; 5xx always fails.
cat >"$WORK/schemathesis.toml" <<'EOF'
[checks.positive_data_acceptance]
expected-statuses = ["200", "422"]

[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]

# A board of another side and its rules can be well formed and still not fit each other (a
# cage off a 4x4 board, a region of the wrong size, a board of 17 characters), which no
# schema can say: there 400 invalid_board or invalid_rules is a right answer to valid data.
[[operations]]
include-path = ["/solve", "/solve/batch", "/validate"]
checks.positive_data_acceptance.expected-statuses = ["200", "400", "422"]

# /generate's parameters are each valid alone but not in every mix (a difficulty or a
# variant beside a size other than 9), which the spec says in words, not in a schema.
[[operations]]
include-path = ["/generate"]
checks.positive_data_acceptance.expected-statuses = ["200", "400", "422"]

# /daily's date may have the right form and still be a day to come (404 date_in_future),
# before 2000-01-01 or off the calendar (400), which no schema can say; an If-None-Match of
# "*" (any tag) gets 304.
[[operations]]
include-path = ["/daily"]
checks.positive_data_acceptance.expected-statuses = ["200", "304", "400", "404"]

# /render reads its puzzle as /solve does (and pencil marks must match the board's side);
# /booklet's boards likewise. A booklet generates and draws up to 200 puzzles, so fewer
# cases are tried on it, and of a difficulty that comes within milliseconds: an expert or
# extreme booklet of many puzzles may rightly end in 503 search_limit at the deadline.
[[operations]]
include-path = ["/render"]
checks.positive_data_acceptance.expected-statuses = ["200", "400", "422"]

[[operations]]
include-operation-id = "bookletGenerated"
checks.positive_data_acceptance.expected-statuses = ["200", "400", "422"]
generation.max-examples = 25
parameters = { "query.difficulty" = "easy" }

# /scan's body is an image of any bytes as far as a schema can say: most are no image (400
# invalid_image), bytes of another format than their type (415), a header claiming too
# many pixels (413 image_too_large), or an image without a grid (422 no_grid_found).
[[operations]]
include-path = ["/scan"]
checks.positive_data_acceptance.expected-statuses = ["200", "400", "413", "415", "422"]

[[operations]]
include-operation-id = "bookletSent"
checks.positive_data_acceptance.expected-statuses = ["200", "400", "422"]
generation.max-examples = 25
EOF
time_args=()
[ -n "${OPENAPI_MAX_TIME:-}" ] && time_args=(--max-time "$OPENAPI_MAX_TIME")
seed_args=()
[ -n "${OPENAPI_SEED:-}" ] && seed_args=(--seed "$OPENAPI_SEED")

# Starts the server with the given extra flags (stopping the one before) and waits for
# /healthz; sets URL.
start_server() { # name, extra flags...
    local name=$1; shift
    stop_release_server
    if ! start_release_server "$WORK/server.log" "$@"; then
        fail "server ($name): no answer on $SERVER_URL/healthz within 10 s"
        exit 1
    fi
    URL="$SERVER_URL"
    pass "server ($name): up on $URL (pid $SERVER_PID)"
}

run_schemathesis() { # name, extra schemathesis args...
    local name=$1; shift
    local report_args=()
    if [ -n "${OPENAPI_REPORT_DIR:-}" ]; then
        mkdir -p "$OPENAPI_REPORT_DIR/${name// /-}"
        report_args=(--report junit --report-dir "$OPENAPI_REPORT_DIR/${name// /-}")
    fi
    local t=$SECONDS
    log "schemathesis ($name): run --checks all --max-examples $MAX_EXAMPLES against $URL"
    if (cd "$WORK" && "$VENV/bin/schemathesis" --config-file "$WORK/schemathesis.toml" run "$SPEC" \
        --url "$URL" \
        --checks all \
        --phases examples,coverage,fuzzing \
        --max-examples "$MAX_EXAMPLES" \
        --request-timeout 15 \
        --generation-database none \
        --no-color \
        "$@" "${time_args[@]}" "${seed_args[@]}" "${report_args[@]}"); then
        pass "schemathesis ($name): --checks all, no failures ($((SECONDS - t)) s)"
    else
        fail "schemathesis ($name): failures above ($((SECONDS - t)) s)"
    fi
}

# 1. As the server starts by default: no keys, no rate limit.
start_server "defaults"
if curl -fsS --max-time 5 "$URL/openapi.yaml" | cmp -s - "$SPEC"; then
    pass "server: GET /openapi.yaml serves this openapi.yaml"
else
    fail "server: GET /openapi.yaml differs from openapi.yaml (stale build?)"
fi
run_schemathesis "no key"

# 2. With API keys on (a fresh key, sent on every request) and a rate limit far
#    above what the run sends, so that the RateLimit headers are checked too.
KEY="$("$PY" -c 'import secrets; print(secrets.token_urlsafe(24))')"
printf '# made by openapi-check.sh\nschemathesis %s\n' "$KEY" >"$WORK/api-keys"
start_server "keys on" --api-keys-file "$WORK/api-keys" --rate-limit 100000000 --rate-limit-window 60
status="$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    -d '{"board":"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"}' "$URL/solve")"
if [ "$status" = 401 ]; then
    pass "server (keys on): /solve without a key answers 401"
else
    fail "server (keys on): /solve without a key answered $status, not 401"
fi
run_schemathesis "with a key" -H "Authorization: Bearer $KEY"
