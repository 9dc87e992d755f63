#!/usr/bin/env bash
# A fast check of a change before the whole suite (docs/testing.md, "A fast check"): format of the
# changed files, then lint, typecheck and unit tests of the workspaces the change touches and of
# those that depend on them (turbo replays the rest from its cache), then the integration and
# measurement tests of the touched workspaces themselves. The change is what differs from
# CHECK_BASE (default HEAD: the uncommitted work), including new files. Starts Postgres, Redis and
# MariaDB if they are not running and stops what it started, pass or fail.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
base=${CHECK_BASE:-HEAD}
git rev-parse --verify -q "$base^{commit}" >/dev/null || die "CHECK_BASE=$base is not a commit"
own_services=0
cleanup() {
  if ((own_services)); then infra/services.sh stop >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
phase() { # name, command...: runs one phase and says how long it took
  local name=$1 t0=$SECONDS
  shift
  say "$name"
  "$@"
  say "$name: $((SECONDS - t0)) s"
}

mapfile -t changed < <({
  git diff --name-only "$base" --
  git ls-files --others --exclude-standard
} | sort -u)
existing=()
for f in "${changed[@]}"; do [ -f "$f" ] && existing+=("$f"); done
if [ ${#changed[@]} -eq 0 ]; then
  say "nothing differs from $base: nothing to check"
  exit 0
fi
say "${#changed[@]} changed files since $base"

# services already running (a `make up` stack) are used as they are and left running; otherwise
# setup starts them (it migrates) and they are stopped at the end
port_busy "${PG_PORT:-54329}" || port_busy "${REDIS_PORT:-63799}" || own_services=1
# the linters need what the test setup installs (shellcheck among them)
scripts/setup.sh --for-tests
load_env
if [ ${#existing[@]} -gt 0 ]; then
  phase "format" npx prettier --check --ignore-unknown --log-level warn "${existing[@]}"
fi
phase "lint" npx turbo run lint --filter="[$base]" --output-logs=errors-only
phase "typecheck" npx turbo run typecheck --filter="...[$base]" --output-logs=errors-only
phase "unit tests" npx turbo run test:unit --filter="...[$base]" --output-logs=errors-only
infra/services.sh start >/dev/null
phase "integration tests" npx turbo run test:integration --filter="[$base]" --concurrency=1 \
  --output-logs=errors-only
phase "measurement tests" npx turbo run test:measurement --filter="[$base]" --concurrency=1 \
  --output-logs=errors-only
say "check passed: $((SECONDS)) s"
