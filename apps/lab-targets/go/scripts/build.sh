#!/usr/bin/env bash
# Builds bin/lab-target only when the Go sources changed: a hash of every .go file plus
# go.mod/go.sum is kept beside the binary, so a second run with nothing changed is instant.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=bin/lab-target
stamp=bin/.lab-target.sha256
hash="$( { go version; find . -path ./bin -prune -o -path ./node_modules -prune -o \
  \( -name '*.go' -o -name go.mod -o -name go.sum \) -type f -print | LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -d' ' -f1)"
if [ -x "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ]; then
  echo "lab-target: up to date ($out)"
  exit 0
fi
mkdir -p bin
go build -trimpath -o "$out.tmp" .
mv "$out.tmp" "$out"
echo "$hash" > "$stamp"
echo "lab-target: built $out"
