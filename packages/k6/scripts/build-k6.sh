#!/usr/bin/env bash
# Builds PoolBench's k6 (stock k6 + the poolbench output) and the loopback
# test server into packages/k6/bin, but only when an input changed: the Go
# sources, go.mod/go.sum or the Go toolchain. A stamp holds the inputs' hash,
# so a second run costs a few milliseconds.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v go >/dev/null 2>&1; then
  echo "build-k6: Go is not installed (need Go >= 1.22 on PATH; see https://go.dev/doc/install)" >&2
  exit 1
fi
gov=$(go env GOVERSION)                       # e.g. go1.26.8
IFS=. read -r major minor _ <<<"${gov#go}"
if [[ ! "$major" =~ ^[0-9]+$ || ! "$minor" =~ ^[0-9]+$ ]] || ((major < 1 || (major == 1 && minor < 22))); then
  echo "build-k6: Go $gov is too old; PoolBench's k6 build needs Go >= 1.22" >&2
  exit 1
fi

if ((minor < 25)); then
  # k6 v1.8 needs Go 1.25; Go >= 1.21 fetches that toolchain itself (GOTOOLCHAIN=auto, module proxy).
  echo "build-k6: note: $gov will use the Go 1.25+ toolchain that go.mod requires (downloaded via the module proxy if missing)" >&2
fi

k6ver=$(awk '$1 == "go.k6.io/k6" { print $2 } $2 == "go.k6.io/k6" { print $3 }' go.mod | head -n1)
hash=$( {
  echo "$gov $(go env GOOS GOARCH) k6=$k6ver"
  find . -path ./bin -prune -o -path ./node_modules -prune -o -type f \( -name '*.go' ! -name '*_test.go' \) -print |
    LC_ALL=C sort | xargs sha256sum
  sha256sum go.mod go.sum
} | sha256sum | cut -d' ' -f1)

stamp=bin/.build-stamp
if [[ -x bin/k6 && -x bin/testserver && -f $stamp && "$(cat "$stamp")" == "$hash" ]]; then
  echo "build-k6: bin/k6 (k6 $k6ver + poolbench output) is up to date"
  exit 0
fi

echo "build-k6: building bin/k6 (k6 $k6ver + poolbench output) and bin/testserver with $gov ..."
mkdir -p bin
start=$(date +%s)
go build -trimpath -o bin/k6.tmp ./cmd/k6
go build -trimpath -o bin/testserver.tmp ./cmd/testserver
mv bin/k6.tmp bin/k6
mv bin/testserver.tmp bin/testserver
echo "$hash" >"$stamp"
echo "build-k6: done in $(($(date +%s) - start)) s: $(bin/k6 version | head -n1)"
