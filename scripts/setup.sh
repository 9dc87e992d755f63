#!/usr/bin/env bash
# Installs and prepares everything PoolBench needs; idempotent and quick on a second run.
# Usage: scripts/setup.sh [--for-tests]   (--for-tests adds Chromium and a compose client)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
FOR_TESTS=0
[ "${1:-}" = "--for-tests" ] && FOR_TESTS=1

# --- toolchains
command -v node >/dev/null || die "Node.js >= 20.19 is required (https://nodejs.org or apt-get install nodejs)."
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || die "Node.js >= 20.19 is required, found $(node --version)."
command -v go >/dev/null || die "Go >= 1.22 is required to build k6 and the lab target (https://go.dev/dl or apt-get install golang)."
go_minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
[ "$go_minor" -ge 22 ] 2>/dev/null || die "Go >= 1.22 is required, found $(go env GOVERSION)."

apt_install() {
  is_root || die "missing Debian packages: $*. Install them: sudo apt-get install $*"
  say "installing Debian packages: $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }
}
if [ "$FOR_TESTS" = 1 ]; then
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium fonts-dejavu-core)
  # The compose file is checked by a compose client even where no Docker engine runs.
  { docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null; } || missing+=(docker-compose)
  command -v shellcheck >/dev/null || missing+=(shellcheck) # lint of every shell script
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
fi

# The worker puts a real nginx in front of a managed target's instances when a pool config or
# target asks for balancing "nginx" (seeds 000 and 002); without root, say how to get it.
if ! [ -x /usr/sbin/nginx ] && ! command -v nginx >/dev/null; then
  if is_root; then apt_install nginx-light; else say "nginx not installed: balancing \"nginx\" will fail (sudo apt-get install nginx-light)"; fi
fi

# --- npm packages (only when the lockfile changed)
lock_hash=$(hash_files package-lock.json package.json)
if [ ! -f node_modules/.poolbench-stamp ] || [ "$(cat node_modules/.poolbench-stamp)" != "$lock_hash" ]; then
  say "installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.poolbench-stamp
else
  say "npm packages up to date"
fi

# --- generated code and binaries (each step skips itself when its inputs did not change)
node packages/db/scripts/generate.mjs
bash packages/k6/scripts/build-k6.sh
bash apps/lab-target/scripts/build.sh
# helm, kubeconform and offline Kubernetes/KEDA schemas for the chart's checks (built once, kept)
if [ "$FOR_TESTS" = 1 ]; then infra/helm/tools.sh; fi

# --- services, schema, demo data
load_env
infra/services.sh start
npm run -s migrate -w @poolbench/db
npm run -s seed -w @poolbench/db
