# Sourced (not run) by the scripts that check the real server from Python tools
# (openapi-check.sh, hodoku-check.sh, variant-check.sh): a pinned virtualenv, and the release server on a
# free 127.0.0.1 port. Each function returns non-zero on failure and leaves the
# reporting to its caller; errors go to stderr.
#
#   ensure_venv VENV REQUIREMENTS   create VENV and install REQUIREMENTS into it, unless
#                                   it already holds exactly that file (a stamp of its hash)
#   build_release ROOT              build ROOT's server in the profile SUDOKU_PROFILE names
#                                   (release unless set; honours CARGO_TARGET_DIR); sets SERVER_BIN
#   start_release_server LOG [FLAG...]  start SERVER_BIN with FLAGs on a free port, its log
#                                   in LOG, and wait up to 10 s for /healthz; sets SERVER_PID
#                                   and SERVER_URL
#   stop_release_server             stop it (TERM, then KILL after 5 s); safe to call twice
#   run_oracle NAME ROOT VENV REQUIREMENTS ORACLE [ARG...]
#                                   the pinned VENV, ROOT's release server, and
#                                   `python ORACLE SERVER_URL ARG...` against it; on exit the
#                                   server is stopped, and its log shown if anything failed
#                                   (it sets the script's EXIT trap, and ends with its status)
#   free_port                       print a free TCP port on 127.0.0.1
#   wait_for_healthz URL PID TRIES PAUSE  poll URL/healthz up to TRIES times, PAUSE seconds
#                                   apart, while PID lives; non-zero if it never answered
#
# The benchmarks (load-bench.sh, http-instructions.sh) start their own server, as shipped
# (INFO logging) and possibly under valgrind, with the last two.

ensure_venv() {
    local venv="$1" requirements="$2"
    local stamp="$venv/.requirements.sha256" want
    want="$(sha256sum "$requirements" | cut -d' ' -f1)"
    if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    command -v python3 >/dev/null || { echo "python3 is not installed" >&2; return 1; }
    echo "installing $(grep -v '^#' "$requirements" | xargs) into $venv" >&2
    local err
    if ! err="$(python3 -m venv "$venv" 2>&1)"; then
        # Debian's python3 lacks ensurepip until python3-venv is installed.
        if ! command -v apt-get >/dev/null || [ "$(id -u)" != 0 ]; then
            echo "$err" >&2
            return 1
        fi
        apt-get install -y -q python3-venv >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q python3-venv >/dev/null; }
        python3 -m venv "$venv" || return 1
    fi
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements" || return 1
    echo "$want" >"$stamp"
}

SERVER_PID=""
SERVER_BIN=""
SERVER_URL=""

build_release() {
    local root="$1" profile="${SUDOKU_PROFILE:-release}" target
    (cd "$root" && cargo build --profile "$profile" --locked --quiet --bin sudoku-service) || return 1
    target="$(cd "$root" && cargo metadata --format-version 1 --no-deps |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
    SERVER_BIN="$target/$profile/sudoku-service"
    [ -x "$SERVER_BIN" ] || { echo "no binary at $SERVER_BIN" >&2; return 1; }
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_for_healthz() {
    local url="$1" pid="$2" tries="$3" pause="$4"
    for _ in $(seq 1 "$tries"); do
        curl -fsS --max-time 1 "$url/healthz" >/dev/null 2>&1 && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep "$pause"
    done
    return 1
}

start_release_server() {
    local log="$1" port
    shift
    port="$(free_port)"
    SERVER_URL="http://127.0.0.1:$port"
    RUST_LOG="${RUST_LOG:-warn}" "$SERVER_BIN" serve --listen "127.0.0.1:$port" "$@" >"$log" 2>&1 &
    SERVER_PID=$!
    wait_for_healthz "$SERVER_URL" "$SERVER_PID" 100 0.1 && return 0
    echo "no answer on $SERVER_URL/healthz within 10 s" >&2
    return 1
}

stop_release_server() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        # Give it a moment to drain, then make sure it is gone.
        for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=""
}

run_oracle() {
    local name=$1 root=$2 venv=$3 requirements=$4 oracle=$5
    shift 5
    ORACLE_NAME=$name
    ORACLE_WORK="$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")"
    trap finish_oracle EXIT
    trap 'exit 130' INT TERM
    ensure_venv "$venv" "$requirements"
    build_release "$root"
    start_release_server "$ORACLE_WORK/server.log"
    echo "[$name] server up on $SERVER_URL (pid $SERVER_PID)" >&2
    "$venv/bin/python" "$oracle" "$SERVER_URL" "$@"
}

finish_oracle() {
    local rc=$?
    stop_release_server
    if [ "$rc" -ne 0 ] && [ -s "$ORACLE_WORK/server.log" ]; then
        echo "[$ORACLE_NAME] server log (last 20 lines):" >&2
        tail -n 20 "$ORACLE_WORK/server.log" >&2 || true
    fi
    rm -rf "$ORACLE_WORK"
    exit "$rc"
}
