# shellcheck shell=bash
# Shared helpers for the setup and stack scripts. Sourced, not run.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$ROOT/.data"
say() { printf '\033[1m[poolbench]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[poolbench] error:\033[0m %s\n' "$*" >&2; exit 1; }
is_root() { [ "$(id -u)" = 0 ]; }
hash_files() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }
port_busy() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }
port_pid() { ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }

# Writes .data/poolbench.env once (secrets generated here, never committed) and exports it.
load_env() {
  mkdir -p "$DATA"
  local f="$DATA/poolbench.env"
  if [ ! -f "$f" ]; then
    umask 077
    cat > "$f" <<ENV
DATABASE_URL=postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench
REDIS_URL=redis://127.0.0.1:63799
POOLBENCH_SECRET_KEY=$(head -c 32 /dev/urandom | base64)
BETTER_AUTH_SECRET=$(head -c 32 /dev/urandom | base64)
BETTER_AUTH_URL=http://localhost:3000
POOLBENCH_URL=http://localhost:3000
NEXT_TELEMETRY_DISABLED=1
TURBO_TELEMETRY_DISABLED=1
ENV
  fi
  # generated above; its path is known only at run time
  set -a
  # shellcheck source=/dev/null
  . "$f"
  set +a
}
