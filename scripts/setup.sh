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

# Users' own k6 scripts run only inside a bubblewrap sandbox (packages/k6/src/sandbox.ts); without
# it the worker refuses them. Without root, say how to get it.
if ! command -v bwrap >/dev/null; then
  if is_root; then apt_install bubblewrap; else say "bubblewrap not installed: users' own k6 scripts will be refused (sudo apt-get install bubblewrap)"; fi
fi

# The worker puts a real nginx in front of a managed target's instances when a pool config or
# target asks for balancing "nginx" (seeds 000 and 002); without root, say how to get it.
if ! [ -x /usr/sbin/nginx ] && ! command -v nginx >/dev/null; then
  if is_root; then apt_install nginx-light; else say "nginx not installed: balancing \"nginx\" will fail (sudo apt-get install nginx-light)"; fi
fi

# The runtimes of docs/runtimes.md: PHP-FPM (with PDO for MySQL and Postgres) and MariaDB, the
# second lab database. JDK + Maven (java-hikari) are checked where it is built; Bun comes from npm.
runtime_missing=()
command -v php-fpm8.2 >/dev/null || [ -x /usr/sbin/php-fpm8.2 ] || runtime_missing+=(php8.2-fpm php8.2-mysql php8.2-pgsql)
command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || runtime_missing+=(mariadb-server)
command -v java >/dev/null || runtime_missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || runtime_missing+=(maven)
if [ ${#runtime_missing[@]} -gt 0 ]; then
  if is_root; then
    apt_install "${runtime_missing[@]}"
    # Debian's packages may start system services of their own; PoolBench never uses them.
    service mariadb stop >/dev/null 2>&1 || true
    service php8.2-fpm stop >/dev/null 2>&1 || true
  else
    say "not installed: ${runtime_missing[*]}: the php-fpm runtime and MariaDB targets will fail (sudo apt-get install ${runtime_missing[*]})"
  fi
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

# --- Python tools from PyPI the tests compare with, each in a virtualenv of its own under .data,
# installed once per version (a second run needs no network): pip_tool DIR DISTRIBUTION VERSION LABEL
pip_tool() {
  local dir="$DATA/$1" dist=$2 version=$3 label=$4
  if [ "$("$dir/bin/python" -c "import importlib.metadata as m; print(m.version('$dist'))" 2>/dev/null)" = "$version" ]; then
    say "$label $version up to date"
    return
  fi
  say "installing $label $version into .data/$1"
  rm -rf "$dir"
  python3 -m venv "$dir" \
    || die "could not make a Python venv for $label (python3 -m venv needs python3-venv)"
  "$dir/bin/pip" install -q --disable-pip-version-check "$dist==$version" \
    || die "could not install $label $version from PyPI (is PyPI reachable from here?)"
}
if [ "$FOR_TESTS" = 1 ]; then
  # the REST API fuzz phase (scripts/fuzz-rest.sh)
  pip_tool schemathesis schemathesis 4.32.5 Schemathesis
  # the reference the change-point test compares PoolBench with (packages/stats/src/change-points.otava.test.ts)
  pip_tool otava apache-otava 0.8.0 "Apache Otava"
fi

# --- generated code and binaries (each step skips itself when its inputs did not change)
node packages/db/scripts/generate.mjs
bash packages/k6/scripts/build-k6.sh
bash apps/lab-targets/go/scripts/build.sh
# the java-hikari runtime (JDK 17 + Maven; HikariCP and the JDBC drivers from Maven Central, cached in ~/.m2)
if command -v java >/dev/null && command -v mvn >/dev/null; then
  bash apps/lab-targets/java-hikari/scripts/build.sh
else
  say "java or mvn not found: the java-hikari runtime will fail (apt-get install openjdk-17-jdk-headless maven)"
fi
# Mailpit: the local SMTP catcher that receives PoolBench's mail (sign-up verification, invitations),
# with its web page (skips itself once built)
infra/build-mailpit.sh v1.33.1
# helm, kubeconform and offline Kubernetes/KEDA schemas for the chart's checks (built once, kept)
if [ "$FOR_TESTS" = 1 ]; then infra/helm/tools.sh; fi

# --- services, schema, demo data
load_env
infra/services.sh start
npm run -s migrate -w @poolbench/db
npm run -s seed -w @poolbench/runs
