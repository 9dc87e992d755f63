# shellcheck shell=bash
# Shared helpers for the setup and stack scripts. Sourced, not run.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="${POOLBENCH_DATA_DIR:-$ROOT/.data}"
say() { printf '\033[1m[poolbench]\033[0m %s\n' "$*"; }
die() { printf '\033[1;31m[poolbench] error:\033[0m %s\n' "$*" >&2; exit 1; }
is_root() { [ "$(id -u)" = 0 ]; }
hash_files() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }
port_busy() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }
# cpu_mark: the CPU time the whole machine has spent busy (every process, not only ours; the
# first line of /proc/stat less idle and iowait, in clock ticks) and the uptime, both from the
# kernel, as "TICKS UPTIME"
cpu_mark() {
  echo "$(awk '/^cpu /{print $2 + $3 + $4 + $7 + $8 + $9; exit}' /proc/stat) $(cut -d' ' -f1 /proc/uptime)"
}
# busy_share MARK: how busy the machine's CPUs were since cpu_mark printed MARK, as "N % of K
# CPUs"; a phase that kept them near 100 % cannot be made faster by running its parts side by side
busy_share() {
  local now
  now=$(cpu_mark)
  awk -v a="$1" -v b="$now" -v hz="$(getconf CLK_TCK)" -v cpus="$(nproc)" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    secs = y[2] - x[2]; if (secs <= 0) secs = 0.01
    share = 100 * (y[1] - x[1]) / (hz * secs * cpus); if (share > 100) share = 100
    printf "machine busy %d %% of %d CPUs", share + 0.5, cpus
  }'
}
port_pid() { ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }

# .data/poolbench.env: every setting this version needs, secrets generated here and never
# committed. Values already in the file are kept; a file from an older version gains the keys it
# lacks. Exported to the caller.
env_default() { # file key value
  grep -q "^$2=" "$1" || printf '%s=%s\n' "$2" "$3" >>"$1"
}
# a random password for a URL: base64url, no padding
url_secret() { head -c 24 /dev/urandom | base64 | tr '+/' '-_' | tr -d '='; }
# the value of one key in .data/poolbench.env, without exporting anything
env_value() { sed -n "s/^$1=//p" "$DATA/poolbench.env" | head -1; }
# writes .data/poolbench.env (new secrets, missing keys, older defaults upgraded) without loading it
write_env() {
  mkdir -p "$DATA"
  local f="$DATA/poolbench.env"
  [ -f "$f" ] || (umask 077 && : >"$f")
  chmod 600 "$f"
  env_default "$f" DATABASE_URL postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench
  # Redis's ACL user for the app (infra/services.sh: no CONFIG, DEBUG or other dangerous commands);
  # a file from before Redis had a password gets one in place of the old default URL
  if grep -qx 'REDIS_URL=redis://127.0.0.1:63799' "$f"; then
    sed -i "s|^REDIS_URL=.*|REDIS_URL=redis://poolbench:$(url_secret)@127.0.0.1:63799|" "$f"
  fi
  env_default "$f" REDIS_URL "redis://poolbench:$(url_secret)@127.0.0.1:63799"
  env_default "$f" POOLBENCH_SECRET_KEY "$(head -c 32 /dev/urandom | base64)"
  env_default "$f" BETTER_AUTH_SECRET "$(head -c 32 /dev/urandom | base64)"
  env_default "$f" BETTER_AUTH_URL http://localhost:3000
  env_default "$f" POOLBENCH_URL http://localhost:3000
  # mail (sign-up verification, invitations): the local Mailpit; put your own SMTP server here
  env_default "$f" SMTP_URL smtp://127.0.0.1:54025
  # the local Mailpit's inbox and API answer only with these credentials (infra/services.sh)
  env_default "$f" MAILPIT_URL "http://poolbench:$(url_secret)@127.0.0.1:54026"
  env_default "$f" MAIL_FROM "'PoolBench <poolbench@localhost>'"
  env_default "$f" NEXT_TELEMETRY_DISABLED 1
  env_default "$f" TURBO_TELEMETRY_DISABLED 1
}
load_env() {
  write_env
  local f="$DATA/poolbench.env"
  # its path is known only at run time
  set -a
  # shellcheck source=/dev/null
  . "$f"
  set +a
}
