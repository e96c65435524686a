#!/usr/bin/env bash
# The bash -c snippets below take their values as arguments, on purpose.
# shellcheck disable=SC2016
# Build the container image from the unchanged Dockerfile with podman and check
# it for real: size, the HTTP API, the non-root user, HEALTHCHECK, and a clean
# exit on `podman stop` (SIGTERM).
#
# Self-contained for a fresh Debian 12 machine as root: scripts/ci/container-setup.sh
# installs podman/buildah/runc and makes local stand-ins for the base images
# (Docker Hub is not reachable). A second run reuses the stand-ins and podman's
# layer cache.
#
# Environment:
#   IMAGE                 tag to build (default localhost/sudoku-service:test)
#   CONTAINER_CONTEXT     build context (default: the repository root)
#   MAX_IMAGE_BYTES       size limit (default 20000000, i.e. 20 MB)
#   CONTAINER_SKIP_LINT=1 skip hadolint
#   CONTAINER_BUILD_ONLY=1 set up and build, check nothing else (CI builds in the
#                         background this way; the full run then finds the layers cached)
#   CONTAINER_KEEP_IMAGE=1 keep the built image (it is kept by default anyway:
#                         removing it would drop the layer cache's tag only)
#   CONTAINER_CARGO_PROFILE  the Dockerfile's CARGO_PROFILE (default release)
#   CA_BUNDLE             CA bundle mounted into the build (default
#                         /etc/ssl/certs/ca-certificates.crt), so cargo trusts
#                         a TLS-intercepting proxy on the way to crates.io
#
# Prints one PASS/FAIL line per check and a closing "N passed, N failed" line;
# exits non-zero when any check failed.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CONTEXT="${CONTAINER_CONTEXT:-$ROOT}"
IMAGE="${IMAGE:-localhost/sudoku-service:test}"
MAX_IMAGE_BYTES="${MAX_IMAGE_BYTES:-20000000}"
CA_BUNDLE="${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
export CONTAINER_STATE_DIR="${CONTAINER_STATE_DIR:-/var/cache/sudoku-service-container}"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$CONTAINER_STATE_DIR/containers.conf}"

NAME="sudoku-ctest-$$"
passed=0
failed=0
t_start=$SECONDS
declare -a summary=()

log() { printf '[container-test] %s\n' "$*" >&2; }
pass() { passed=$((passed + 1)); summary+=("PASS  $*"); printf 'PASS  %s\n' "$*"; }
fail() { failed=$((failed + 1)); summary+=("FAIL  $*"); printf 'FAIL  %s\n' "$*"; }
check() { # check "description" command...
    local what="$1"; shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}

finish() {
    local rc=$?
    if podman container exists "$NAME" 2>/dev/null; then
        if [ "$failed" -gt 0 ] || [ "$rc" -ne 0 ]; then
            log "container logs (last 30 lines):"
            podman logs --tail 30 "$NAME" >&2 || true
        fi
        podman rm -f -t 0 "$NAME" >/dev/null 2>&1 || true
    fi
    echo
    echo "=== container test summary ($((SECONDS - t_start)) s) ==="
    printf '%s\n' "${summary[@]}"
    if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
        failed=1
        echo "FAIL  aborted (exit $rc) before all checks ran"
    fi
    echo "container: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] || exit 1
    exit "$rc"
}
trap finish EXIT

# --- setup and lint -----------------------------------------------------------
t=$SECONDS
"$ROOT/scripts/ci/container-setup.sh"
pass "setup: podman, runc and base images ready ($((SECONDS - t)) s)"

if [ "${CONTAINER_SKIP_LINT:-0}" != 1 ] && [ "${CONTAINER_BUILD_ONLY:-0}" != 1 ]; then
    check "hadolint Dockerfile" "$ROOT/scripts/ci/container-lint.sh"
fi

# --- build --------------------------------------------------------------------
t=$SECONDS
build_log="$CONTAINER_STATE_DIR/build.log"
log "building $IMAGE from $CONTEXT (log: $build_log)"
if podman build --pull=never --network host --format docker \
    -v "$CA_BUNDLE:/etc/ssl/certs/ca-certificates.crt:ro" \
    --build-arg CARGO_PROFILE="${CONTAINER_CARGO_PROFILE:-release}" \
    -f "$ROOT/Dockerfile" -t "$IMAGE" "$CONTEXT" >"$build_log" 2>&1; then
    pass "podman build ($((SECONDS - t)) s)"
else
    tail -n 60 "$build_log" >&2
    fail "podman build ($((SECONDS - t)) s)"
    exit 1
fi
[ "${CONTAINER_BUILD_ONLY:-0}" != 1 ] || exit 0

# --- image --------------------------------------------------------------------
size="$(podman image inspect --format '{{.Size}}' "$IMAGE")"
check "image size $size bytes ($((size / 1024)) KiB) < $MAX_IMAGE_BYTES" \
    test "$size" -lt "$MAX_IMAGE_BYTES"

cfg_user="$(podman image inspect --format '{{.Config.User}}' "$IMAGE")"
check "image USER is numeric non-root ($cfg_user)" \
    bash -c '[[ "$1" =~ ^[0-9]+(:[0-9]+)?$ ]] && [ "${1%%:*}" != 0 ]' _ "$cfg_user"

healthcheck_cfg="$(podman image inspect --format '{{json .HealthCheck}}' "$IMAGE" 2>/dev/null || true)"
[ -n "$healthcheck_cfg" ] && [ "$healthcheck_cfg" != null ] \
    || healthcheck_cfg="$(podman image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE" 2>/dev/null || true)"
check "image has HEALTHCHECK ($healthcheck_cfg)" \
    grep -q 'sudoku-service' <<<"$healthcheck_cfg"

# scratch image: the binary and nothing else, no shell.
check "image has no shell" \
    bash -c '! podman run --rm --pull=never --entrypoint /bin/sh "$1" -c true >/dev/null 2>&1' _ "$IMAGE"

# --- run ----------------------------------------------------------------------
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=""
for _ in $(seq 1 50); do
    candidate=$((20000 + RANDOM % 20000))
    if port_free "$candidate"; then port=$candidate; break; fi
done
[ -n "$port" ] || { fail "find a free port"; exit 1; }

# --health-interval disable: no periodic timer (podman wants systemd for it);
# the image's HEALTHCHECK is still run on demand below.
# Run it as Kubernetes would (deploy/kubernetes/deployment.yaml): read-only
# root filesystem, no capabilities, no privilege escalation.
podman run -d --pull=never --name "$NAME" --network host \
    --read-only --cap-drop ALL --security-opt no-new-privileges \
    --health-interval disable \
    -e PORT="$port" -e SUDOKU_LOG_FORMAT=json \
    "$IMAGE" >/dev/null
log "container $NAME on 127.0.0.1:$port"

base="http://127.0.0.1:$port"
up=0
for _ in $(seq 1 100); do # at most ~10 s
    if curl -fsS -m 1 "$base/healthz" >/dev/null 2>&1; then up=1; break; fi
    if [ "$(podman inspect --format '{{.State.Running}}' "$NAME")" != true ]; then break; fi
    sleep 0.1
done
check "server answers on port $port (PORT env honoured)" test "$up" = 1
[ "$up" = 1 ] || exit 1

healthz="$(curl -sS -m 5 "$base/healthz")"
check "GET /healthz -> $healthz" grep -Eq '"status" *: *"ok"' <<<"$healthz"

readyz_code="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "$base/readyz")"
check "GET /readyz -> $readyz_code" test "$readyz_code" = 200

puzzle='53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
solution='534678912672195348198342567859761423426853791713924856961537284287419635345286179'
solve="$(curl -sS -m 10 -H 'Content-Type: application/json' \
    -d "{\"board\":\"$puzzle\"}" -w '\n%{http_code}' "$base/solve")"
solve_code="${solve##*$'\n'}"
solve_body="${solve%$'\n'*}"
check "POST /solve -> $solve_code with the known solution" \
    bash -c '[ "$1" = 200 ] && grep -q "\"solution\" *: *\"$3\"" <<<"$2" && grep -Eq "\"unique\" *: *true" <<<"$2"' \
    _ "$solve_code" "$solve_body" "$solution"

bad_code="$(curl -sS -m 5 -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    -d '{"board":"not a board"}' "$base/solve")"
check "POST /solve with a bad board -> $bad_code (4xx)" bash -c '[[ "$1" =~ ^4[0-9][0-9]$ ]]' _ "$bad_code"

metrics="$(curl -sS -m 5 -w '\n%{http_code}' "$base/metrics")"
metrics_code="${metrics##*$'\n'}"
check "GET /metrics -> $metrics_code, Prometheus text with solve metrics" \
    bash -c '[ "$1" = 200 ] && grep -q "^# TYPE " <<<"$2" && grep -q "solver_duration_seconds" <<<"$2"' \
    _ "$metrics_code" "${metrics%$'\n'*}"

# --- user ---------------------------------------------------------------------
pid="$(podman inspect --format '{{.State.Pid}}' "$NAME")"
uids="$(awk '/^Uid:/ {print $2, $3, $4, $5}' "/proc/$pid/status" 2>/dev/null || true)"
gids="$(awk '/^Gid:/ {print $2, $3, $4, $5}' "/proc/$pid/status" 2>/dev/null || true)"
check "process (host pid $pid) runs as uid [$uids] gid [$gids], not root" \
    bash -c '[ -n "$1" ] && for u in $1; do [ "$u" != 0 ] || exit 1; done' _ "$uids"
top_user="$(podman top "$NAME" user huser 2>/dev/null | tail -n +2 | head -n 1 | tr -s ' ' || true)"
check "podman top user/huser: $top_user" bash -c '[ -n "$1" ] && ! grep -qw root <<<"$1"' _ "$top_user"

# --- healthcheck --------------------------------------------------------------
hc_out="$(podman healthcheck run "$NAME" 2>&1)" && hc_rc=0 || hc_rc=$?
check "podman healthcheck run (image HEALTHCHECK) -> exit $hc_rc${hc_out:+ ($hc_out)}" test "$hc_rc" = 0

# --- graceful stop ------------------------------------------------------------
t0="$(date +%s.%N)"
# (podman 4 complains on stderr that it cannot remove a systemd health timer
# when there is no systemd; that message is noise, anything else is shown.)
podman stop -t 10 "$NAME" 2>&1 >/dev/null | grep -v 'unable to get systemd connection' >&2 || true
t1="$(date +%s.%N)"
stop_ms="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')"
exit_code="$(podman inspect --format '{{.State.ExitCode}}' "$NAME")"
check "podman stop (SIGTERM) -> exit code $exit_code" test "$exit_code" = 0
check "stopped in ${stop_ms} ms (< 5000)" test "$stop_ms" -lt 5000
