#!/usr/bin/env bash
# Tools that check the Helm chart offline, installed once per machine and kept, in
# $POOLBENCH_TOOLS_DIR (default ~/.cache/poolbench/tools: shared by every clone, version-pinned):
#   helm (lint, template) and kubeconform, built from the Go module proxy at pinned versions;
#   Kubernetes' JSON schemas from PyPI's kubernetes-validate (kubeconform would download them at
#   run time, which a machine without internet cannot), and KEDA's CRD schemas from its Go module.
# Idempotent: a second run only checks versions. Prints nothing but what it installs.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
K8S_SCHEMA_VERSION=1.37.0        # kubernetes-validate release = Kubernetes version it carries
KEDA_VERSION=v2.21.0
TOOLS="${POOLBENCH_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/poolbench/tools}"
mkdir -p "$TOOLS/bin"

go_tool() { # binary module version
  local stamp="$TOOLS/bin/.$1.version"
  if [ -x "$TOOLS/bin/$1" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$3" ]; then return; fi
  say "building $1 $3 from the Go module proxy (once, ~3 min)"
  GOBIN="$TOOLS/bin" go install "$2@$3"
  echo "$3" >"$stamp"
}
go_tool helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION"
go_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"

schemas="$TOOLS/k8s-schemas"
stamp="$schemas/.version"
want="k8s=$K8S_SCHEMA_VERSION keda=$KEDA_VERSION $(hash_files "$ROOT/infra/helm/prepare-schemas.mjs")"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  say "preparing Kubernetes $K8S_SCHEMA_VERSION and KEDA $KEDA_VERSION schemas for kubeconform"
  if [ ! -x "$TOOLS/venv/bin/python" ]; then python3 -m venv "$TOOLS/venv"; fi
  "$TOOLS/venv/bin/pip" install -q --disable-pip-version-check "kubernetes-validate==$K8S_SCHEMA_VERSION"
  src=$("$TOOLS/venv/bin/python" -c 'import kubernetes_validate, os; print(os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema"))')
  keda_dir=$(go mod download -json "github.com/kedacore/keda/v2@$KEDA_VERSION" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).Dir))')
  rm -rf "$schemas"
  node "$ROOT/infra/helm/prepare-schemas.mjs" "$src/v$K8S_SCHEMA_VERSION-local-strict" "$keda_dir/config/crd/bases" "$schemas/v$K8S_SCHEMA_VERSION-strict"
  echo "$want" >"$stamp"
fi
