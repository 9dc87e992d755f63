#!/usr/bin/env bash
# Local Postgres (54329) and Redis (63799) without Docker, data under .data/.
# Usage: infra/services.sh start|stop|status
# Idempotent: start on a running stack is a no-op; stop only stops what this script started.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="${POOLBENCH_DATA_DIR:-$ROOT/.data}"
PG_PORT="${PG_PORT:-54329}"
REDIS_PORT="${REDIS_PORT:-63799}"
PG_USER=poolbench
PG_PASSWORD=poolbench
PG_DB=poolbench

say() { printf '[services] %s\n' "$*"; }
die() { printf '[services] error: %s\n' "$*" >&2; exit 1; }

is_root() { [ "$(id -u)" = 0 ]; }

pg_bindir() {
  if [ -n "${PG_BINDIR:-}" ]; then [ -x "$PG_BINDIR/postgres" ] && echo "$PG_BINDIR"; return; fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$d/postgres" ] && { echo "$d"; return; }
  done
  command -v postgres >/dev/null 2>&1 && dirname "$(command -v postgres)"
}

apt_install() {
  is_root || return 1
  say "installing Debian packages: $*"
  if [ ! -f /var/lib/apt/lists/lock ] || [ -z "$(find /var/lib/apt/lists/ -mindepth 1 -maxdepth 1 ! -name lock ! -name partial 2>/dev/null | head -1)" ]; then
    apt-get update -qq
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }
}

ensure_binaries() {
  if [ -z "$(pg_bindir)" ]; then
    apt_install postgresql || die "PostgreSQL server not found. Install it: sudo apt-get install postgresql (or set PG_BINDIR)."
  fi
  if ! command -v redis-server >/dev/null 2>&1; then
    apt_install redis-server || die "redis-server not found. Install it: sudo apt-get install redis-server"
  fi
  # Debian's packages start system services of their own; we never use them.
  if is_root && command -v service >/dev/null 2>&1; then
    service redis-server stop >/dev/null 2>&1 || true
  fi
}

# Postgres refuses to run as root, so as root it runs as the 'postgres' system user.
run_as_pg() {
  if is_root; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_owner_pid() { # prints a pid listening on the port, if any
  ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2
}
port_busy() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }

pg_running() { [ -f "$DATA/pg/postmaster.pid" ] && run_as_pg "$(pg_bindir)/pg_ctl" -D "$DATA/pg" status >/dev/null 2>&1; }
redis_pid() { [ -f "$DATA/redis/redis.pid" ] && cat "$DATA/redis/redis.pid"; }
redis_running() { local p; p=$(redis_pid 2>/dev/null) && [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }

start_pg() {
  local bin; bin="$(pg_bindir)"
  if pg_running; then say "postgres already running on $PG_PORT"; return; fi
  port_busy "$PG_PORT" && die "port $PG_PORT is already in use by another process (pid $(port_owner_pid "$PG_PORT")). Stop it or set PG_PORT."
  mkdir -p "$DATA"
  # Postgres runs as the postgres user, who must reach .data/pg: a clone under a private folder
  # (mode 700, as mktemp makes them) needs the traverse bit on each ancestor, nothing more.
  if is_root; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    if ! runuser -u postgres -- test -x "$DATA"; then
      local d="$DATA"
      while [ "$d" != "/" ]; do chmod o+x "$d" 2>/dev/null || true; d=$(dirname "$d"); done
    fi
  fi
  if [ ! -f "$DATA/pg/PG_VERSION" ]; then
    say "initialising postgres cluster in $DATA/pg"
    mkdir -p "$DATA/pg"
    is_root && chown postgres "$DATA/pg" && chmod 700 "$DATA/pg"
    local pw; pw="$(mktemp)"; echo "$PG_PASSWORD" > "$pw"; chmod 644 "$pw"
    run_as_pg "$bin/initdb" -D "$DATA/pg" -U "$PG_USER" --pwfile="$pw" -A scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$pw"
    cat >> "$DATA/pg/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$DATA/pg'
max_connections = 200
shared_buffers = 128MB
fsync = on
log_min_messages = warning
CONF
  fi
  run_as_pg "$bin/pg_ctl" -D "$DATA/pg" -l "$DATA/pg/server.log" -w -t 30 start >/dev/null \
    || die "postgres failed to start; see $DATA/pg/server.log"
  PGPASSWORD=$PG_PASSWORD "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname='$PG_DB'" | grep -q 1 \
    || PGPASSWORD=$PG_PASSWORD "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" "$PG_DB"
  say "postgres running on 127.0.0.1:$PG_PORT (db $PG_DB, user $PG_USER)"
}

start_redis() {
  if redis_running; then say "redis already running on $REDIS_PORT"; return; fi
  port_busy "$REDIS_PORT" && die "port $REDIS_PORT is already in use by another process (pid $(port_owner_pid "$REDIS_PORT")). Stop it or set REDIS_PORT."
  mkdir -p "$DATA/redis"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes \
    --dir "$DATA/redis" --pidfile "$DATA/redis/redis.pid" --logfile "$DATA/redis/redis.log" \
    --appendonly yes --maxmemory-policy noeviction --save "" >/dev/null
  for _ in $(seq 1 50); do
    redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && { say "redis running on 127.0.0.1:$REDIS_PORT"; return; }
    sleep 0.1
  done
  die "redis failed to start; see $DATA/redis/redis.log"
}

stop_pg() {
  if pg_running; then run_as_pg "$(pg_bindir)/pg_ctl" -D "$DATA/pg" -m fast -w stop >/dev/null; say "postgres stopped"; else say "postgres not running"; fi
}
stop_redis() {
  if redis_running; then
    local p; p=$(redis_pid); kill "$p"
    for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    say "redis stopped"
  else say "redis not running"; fi
}

case "${1:-}" in
  start) ensure_binaries; start_pg; start_redis ;;
  stop) [ -n "$(pg_bindir)" ] && stop_pg; command -v redis-server >/dev/null && stop_redis; true ;;
  status)
    rc=0
    if [ -n "$(pg_bindir)" ] && pg_running; then say "postgres: running on $PG_PORT"; else say "postgres: stopped"; rc=1; fi
    if redis_running; then say "redis: running on $REDIS_PORT"; else say "redis: stopped"; rc=1; fi
    exit $rc ;;
  restart-redis) stop_redis; start_redis ;;
  url) echo "postgresql://$PG_USER:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB" ;;
  *) echo "usage: $0 start|stop|status|url" >&2; exit 2 ;;
esac
