#!/usr/bin/env bash
# Builds Mailpit (the local mail catcher) into .data/bin/mailpit with its web page.
# Usage: infra/build-mailpit.sh VERSION
#
# `go install` alone builds Mailpit without its page: the page's scripts are built by npm from the
# sources the Go module holds (server/ui-src) and are not part of the module, so its inbox at
# :54026 stays blank and mail can only be read through its API. So: the module's source from the
# Go module cache, its UI built with npm and esbuild, then `go build`, which embeds server/ui.
# Two adjustments, because the npm registry reached here lacks versions its lockfile pins: the
# lockfile is left out (npm resolves the ranges anew), and rapidoc, which draws only the API's own
# docs page, is taken at the newest major the registry has. Linters and browser tests of Mailpit's
# own are not installed. If the page cannot be built, the API-only `go install` build is kept and
# this says so; the API (what the browser tests read) works either way.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../scripts/lib.sh
. "$ROOT/scripts/lib.sh"
VERSION=${1:?usage: infra/build-mailpit.sh VERSION}
STAMP="$VERSION+ui"
[ -x "$DATA/bin/mailpit" ] && [ "$(cat "$DATA/bin/mailpit.version" 2>/dev/null)" = "$STAMP" ] && exit 0
mkdir -p "$DATA/bin"
# A build with its page is kept for every clone on this machine (as infra/helm/tools.sh keeps its
# tools): a second clone copies it instead of building again, and needs no npm registry for it.
TOOLS="${POOLBENCH_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/poolbench/tools}"
kept="$TOOLS/bin/mailpit-$STAMP"
if [ -x "$kept" ]; then
  cp "$kept" "$DATA/bin/mailpit"
  echo "$STAMP" > "$DATA/bin/mailpit.version"
  exit 0
fi

say "building mailpit $VERSION (local mail catcher) with its web page"
src=$(go mod download -json "github.com/axllent/mailpit@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || die "go mod download found no source for mailpit $VERSION"
work="$DATA/build/mailpit-$VERSION"
rm -rf "$work"
mkdir -p "$(dirname "$work")"
cp -r "$src" "$work"
chmod -R u+w "$work"
ui_built() {
  cd "$work" &&
    rm -f package-lock.json &&
    npm pkg set dependencies.rapidoc='^9.3.8' &&
    npm pkg delete devDependencies.@playwright/test devDependencies.eslint \
      devDependencies.@eslint/compat devDependencies.@eslint/js devDependencies.eslint-config-prettier \
      devDependencies.eslint-plugin-vue devDependencies.globals devDependencies.jsdom \
      devDependencies.prettier &&
    npm install --ignore-scripts --no-audit --no-fund --loglevel=error --fetch-retries=1 \
      --fetch-timeout=30000 >/dev/null &&
    npm run -s build >/dev/null &&
    [ -s server/ui/dist/app.js ] &&
    CGO_ENABLED=0 go build -ldflags "-s -w" -o "$DATA/bin/mailpit" .
}
if (ui_built); then
  echo "$STAMP" > "$DATA/bin/mailpit.version"
  rm -rf "$work"
  mkdir -p "$TOOLS/bin"
  cp "$DATA/bin/mailpit" "$kept.$$" && mv "$kept.$$" "$kept"
  say "mailpit built with its web page (http://127.0.0.1:54026, the user and password of MAILPIT_URL)"
else
  say "mailpit's web page could not be built: building it without (its API works, its page is blank)"
  GOBIN="$DATA/bin" go install "github.com/axllent/mailpit@$VERSION"
  # no +ui stamp: the next setup tries the page again
  echo "$VERSION" > "$DATA/bin/mailpit.version"
fi
