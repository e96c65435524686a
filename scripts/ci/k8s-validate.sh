#!/usr/bin/env bash
# Validate the Kubernetes manifests in deploy/kubernetes offline, with
# kubernetes-validate --strict (unknown fields are errors), against the newest
# schema it ships and against the oldest Kubernetes the manifests support.
# Installs kubernetes-validate from PyPI when it is missing.
#
# Environment:
#   K8S_MIN_VERSION   oldest Kubernetes to validate against (default 1.30.0:
#                     the preStop sleep action needs it)
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=deploy/kubernetes
MIN_VERSION="${K8S_MIN_VERSION:-1.30.0}"

if ! command -v kubernetes-validate >/dev/null 2>&1; then
    echo "[k8s-validate] installing kubernetes-validate from PyPI" >&2
    if ! python3 -m pip --version >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip >/dev/null
    fi
    python3 -m pip install -q kubernetes-validate >&2 \
        || python3 -m pip install -q --break-system-packages kubernetes-validate >&2
    hash -r
fi
command -v kubernetes-validate >/dev/null 2>&1 || export PATH="$HOME/.local/bin:$PATH"

# Every manifest but kustomization.yaml (not a cluster resource).
mapfile -t manifests < <(find "$DIR" -maxdepth 1 -name '*.yaml' ! -name kustomization.yaml | sort)
[ "${#manifests[@]}" -gt 0 ] || { echo "[k8s-validate] no manifests in $DIR" >&2; exit 1; }

passed=0
failed=0
run() {
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

echo "[k8s-validate] kubernetes-validate $(kubernetes-validate --version 2>&1 | tail -n 1)"
run kubernetes-validate --strict "${manifests[@]}"
run kubernetes-validate --strict --kubernetes-version "$MIN_VERSION" "${manifests[@]}"

# kustomization.yaml must list exactly the manifests that are here, each
# document must carry the app label the selectors use, and the Deployment's
# scrape annotation and probes must point at the admin port it listens on.
run python3 - "$DIR" "${manifests[@]}" <<'PY'
import os, sys, yaml
d, manifests = sys.argv[1], sys.argv[2:]
with open(os.path.join(d, "kustomization.yaml")) as f:
    k = yaml.safe_load(f)
listed = sorted(os.path.join(d, r) for r in k.get("resources", []))
ok = True
if listed != sorted(manifests):
    print(f"ERROR kustomization.yaml resources {listed} != manifests {sorted(manifests)}")
    ok = False
for m in manifests:
    with open(m) as f:
        for doc in yaml.safe_load_all(f):
            labels = (doc.get("metadata") or {}).get("labels") or {}
            if labels.get("app.kubernetes.io/name") != "sudoku-service":
                print(f"ERROR {m}: {doc.get('kind')} lacks label app.kubernetes.io/name=sudoku-service")
                ok = False
            if doc.get("kind") != "Deployment":
                continue
            # Metrics and probes go to the admin port the server is told to listen on.
            pod = doc["spec"]["template"]
            container = pod["spec"]["containers"][0]
            ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
            env = {e["name"]: e.get("value") for e in container.get("env", [])}
            admin = env.get("SUDOKU_ADMIN_LISTEN") or ""
            scrape = (pod["metadata"].get("annotations") or {}).get("prometheus.io/port")
            probes = [container.get(p, {}).get("httpGet", {}).get("port")
                      for p in ("startupProbe", "livenessProbe", "readinessProbe")]
            if not admin.endswith(f":{ports.get('admin')}") or scrape != str(ports.get("admin")):
                print(f"ERROR {m}: SUDOKU_ADMIN_LISTEN {admin!r}, port admin {ports.get('admin')}"
                      f" and the scrape port {scrape!r} disagree")
                ok = False
            if any(port != "admin" for port in probes):
                print(f"ERROR {m}: probes on {probes}, not the admin port")
                ok = False
print("INFO kustomization.yaml lists every manifest; metrics and probes on the admin port" if ok else "ERROR kustomization check failed")
sys.exit(0 if ok else 1)
PY

echo "k8s-validate: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
