#!/usr/bin/env bash
# Prepare this machine to build and run the project's container image with
# podman, without a Docker engine and without pulling from Docker Hub.
#
# Idempotent; meant for a fresh Debian 12 machine as root. It:
#   1. installs podman, buildah, runc, debootstrap, curl and ca-certificates
#      with apt-get when any of them is missing;
#   2. writes a containers.conf (runtime runc, raised ulimits; crun fails on
#      these machines) at $CONTAINERS_CONF;
#   3. creates local stand-ins for the base images the Dockerfile names, only
#      when they are missing:
#        docker.io/library/debian:bookworm-slim   debootstrap --variant=minbase
#        docker.io/library/rust:1-slim-bookworm   that + Debian's rustc-web,
#                                                 cargo-web (bookworm-security)
#      The final stage is FROM scratch and needs nothing.
#
# Use it from other scripts with:
#   export CONTAINERS_CONF="${CONTAINERS_CONF:-/var/cache/sudoku-service-container/containers.conf}"
#   scripts/ci/container-setup.sh
#
# Environment:
#   CONTAINER_STATE_DIR   where containers.conf and the debootstrap scratch dir
#                         live (default /var/cache/sudoku-service-container)
#   CONTAINERS_CONF       the containers.conf to write (default in STATE_DIR)
#   DEBIAN_MIRROR         debootstrap mirror (default http://deb.debian.org/debian)
#   CONTAINER_TRY_PULL=1  try `podman pull` of the real images before making
#                         stand-ins (off by default: Docker Hub is unreachable here)
#   CONTAINER_REBUILD_STANDINS=1  remove and recreate the stand-ins
set -euo pipefail

STATE_DIR="${CONTAINER_STATE_DIR:-/var/cache/sudoku-service-container}"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$STATE_DIR/containers.conf}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
DEBIAN_IMAGE="docker.io/library/debian:bookworm-slim"
RUST_IMAGE="${RUST_IMAGE:-docker.io/library/rust:1-slim-bookworm}"
STANDIN_LABEL="io.github.sudoku-service.standin=true"

log() { printf '[container-setup] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# --- 1. tools ---------------------------------------------------------------
need_pkgs=()
for tool in podman:podman buildah:buildah runc:runc debootstrap:debootstrap curl:curl; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || need_pkgs+=("${tool#*:}")
done
[ -s /etc/ssl/certs/ca-certificates.crt ] || need_pkgs+=(ca-certificates)
if [ "${#need_pkgs[@]}" -gt 0 ]; then
    command -v apt-get >/dev/null 2>&1 || die "missing ${need_pkgs[*]} and no apt-get to install them"
    log "installing ${need_pkgs[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${need_pkgs[@]}" >/dev/null
fi
# runc and podman's helpers (conmon, netavark/cni) come as podman's dependencies.
command -v runc >/dev/null 2>&1 || die "runc not installed"

# --- 2. containers.conf -----------------------------------------------------
mkdir -p "$STATE_DIR" "$(dirname "$CONTAINERS_CONF")"
conf_tmp="$(mktemp "$CONTAINERS_CONF.XXXXXX")"
cat >"$conf_tmp" <<'EOF'
# Written by scripts/ci/container-setup.sh (sudoku-service).
[engine]
runtime = "runc"

[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
EOF
mv -f "$conf_tmp" "$CONTAINERS_CONF"

# --- 3. base image stand-ins -----------------------------------------------
image_exists() { podman image exists "$1"; }

if [ "${CONTAINER_REBUILD_STANDINS:-0}" = 1 ]; then
    for img in "$RUST_IMAGE" "$DEBIAN_IMAGE"; do
        if image_exists "$img"; then
            log "removing $img"
            podman rmi -f "$img" >/dev/null
        fi
    done
fi

try_pull() {
    [ "${CONTAINER_TRY_PULL:-0}" = 1 ] || return 1
    log "trying to pull $1"
    timeout 120 podman pull -q "$1" >/dev/null 2>&1
}

if image_exists "$DEBIAN_IMAGE"; then
    log "$DEBIAN_IMAGE present"
elif try_pull "$DEBIAN_IMAGE"; then
    log "pulled $DEBIAN_IMAGE"
else
    log "creating stand-in $DEBIAN_IMAGE with debootstrap (about a minute)"
    rootfs="$(mktemp -d "$STATE_DIR/rootfs.XXXXXX")"
    # shellcheck disable=SC2064 # expand now: the path is fixed
    trap "rm -rf '$rootfs'" EXIT
    as_root debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" \
        >"$STATE_DIR/debootstrap.log" 2>&1 \
        || { tail -n 30 "$STATE_DIR/debootstrap.log" >&2; die "debootstrap failed"; }
    # Like the official slim image: no apt lists or caches.
    rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb
    tar -C "$rootfs" -c . \
        | podman import \
            --change 'CMD ["bash"]' \
            --change "LABEL $STANDIN_LABEL" \
            - "$DEBIAN_IMAGE" >/dev/null
    rm -rf "$rootfs"
    trap - EXIT
    log "created $DEBIAN_IMAGE"
fi

if image_exists "$RUST_IMAGE"; then
    log "$RUST_IMAGE present"
elif try_pull "$RUST_IMAGE"; then
    log "pulled $RUST_IMAGE"
else
    log "creating stand-in $RUST_IMAGE from Debian's rustc-web/cargo-web"
    # bookworm-security carries a current rustc-web (bookworm main has 1.85).
    podman build --pull=never --network host --format docker \
        --label "$STANDIN_LABEL" -t "$RUST_IMAGE" -f - "$STATE_DIR" \
        >"$STATE_DIR/rust-standin.log" 2>&1 <<EOF || { tail -n 40 "$STATE_DIR/rust-standin.log" >&2; die "building the $RUST_IMAGE stand-in failed"; }
FROM $DEBIAN_IMAGE
RUN echo 'deb http://deb.debian.org/debian-security bookworm-security main' > /etc/apt/sources.list.d/security.list \\
 && echo 'deb $MIRROR bookworm-updates main' > /etc/apt/sources.list.d/updates.list \\
 && apt-get update -qq \\
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \\
      cargo-web rustc-web gcc libc6-dev ca-certificates \\
 && rm -rf /var/lib/apt/lists/* \\
 && rustc -vV && cargo -V
ENV CARGO_HOME=/usr/local/cargo
ENV PATH=/usr/local/cargo/bin:\$PATH
EOF
    log "created $RUST_IMAGE"
fi

log "ready: CONTAINERS_CONF=$CONTAINERS_CONF"
