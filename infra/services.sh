#!/usr/bin/env bash
# Local Postgres (54329), Redis (63799), MariaDB (33069) and Mailpit (SMTP 54025, its web UI and API
# 54026) without Docker, data under .data/.
# Usage: infra/services.sh start|stop|status
# MariaDB is the second lab database (seed 001's MySQL result sets, the runtimes of docs/runtimes.md);
# it starts with the others when mariadbd is installed, unless POOLBENCH_MARIADB=0.
# Idempotent: start on a running stack is a no-op; stop only stops what this script started.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# write_env and env_value: the credentials below are the ones the apps get in .data/poolbench.env
# shellcheck source=../scripts/lib.sh
. "$ROOT/scripts/lib.sh"
DATA="${POOLBENCH_DATA_DIR:-$ROOT/.data}"
PG_PORT="${PG_PORT:-54329}"
REDIS_PORT="${REDIS_PORT:-63799}"
MARIADB_PORT="${MARIADB_PORT:-33069}"
MAILPIT_SMTP_PORT="${MAILPIT_SMTP_PORT:-54025}"
MAILPIT_HTTP_PORT="${MAILPIT_HTTP_PORT:-54026}"
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

# The app's Redis user and password, from REDIS_URL (redis://user:password@host:port).
redis_user() { local u; u=$(env_value REDIS_URL | sed -n 's|^redis://\([^:@/]*\):[^@]*@.*|\1|p'); echo "${u:-default}"; }
redis_password() { env_value REDIS_URL | sed -n 's|^redis://[^:@/]*:\([^@]*\)@.*|\1|p'; }
# Commands BullMQ needs from @dangerous: INFO (version and eviction policy checks), CLIENT LIST
# (Queue.getWorkers) and CLIENT KILL (the queue package's reconnection test). Everything else of
# @dangerous (CONFIG, DEBUG, MODULE, SHUTDOWN, FLUSHALL, KEYS, MONITOR, ACL, REPLICAOF, SAVE, …) is
# refused to the app's user; the default user is off, so nothing works without the password.
REDIS_APP_RULES='~* &* +@all -@dangerous +info +client|list +client|kill'
write_redis_acl() { # the ACL file: a sha256 of the password, never the password itself
  local user pass
  user=$(redis_user) pass=$(redis_password)
  [ -n "$pass" ] || die "REDIS_URL in $DATA/poolbench.env carries no password (redis://poolbench:PASSWORD@127.0.0.1:$REDIS_PORT): refusing to start a Redis anyone on this machine can use"
  [ "$user" != default ] || die "REDIS_URL names no user (redis://poolbench:PASSWORD@…): the app's Redis user must not be the default one"
  (umask 077 && printf 'user default off\nuser %s on #%s %s\n' "$user" \
    "$(printf %s "$pass" | sha256sum | cut -c1-64)" "$REDIS_APP_RULES" >"$DATA/redis/users.acl")
}
redis_ping() { REDISCLI_AUTH=$(redis_password) redis-cli --no-auth-warning --user "$(redis_user)" -p "$REDIS_PORT" ping 2>/dev/null; }
start_redis() {
  if redis_running; then say "redis already running on $REDIS_PORT"; return; fi
  port_busy "$REDIS_PORT" && die "port $REDIS_PORT is already in use by another process (pid $(port_owner_pid "$REDIS_PORT")). Stop it or set REDIS_PORT."
  mkdir -p "$DATA/redis"
  write_redis_acl
  # loopback only; DEBUG and MODULE are off for every user (the Redis 7 defaults, said here)
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --protected-mode yes --daemonize yes \
    --dir "$DATA/redis" --pidfile "$DATA/redis/redis.pid" --logfile "$DATA/redis/redis.log" \
    --aclfile "$DATA/redis/users.acl" --enable-debug-command no --enable-module-command no \
    --appendonly yes --maxmemory-policy noeviction --save "" >/dev/null
  for _ in $(seq 1 50); do
    redis_ping | grep -q PONG && { say "redis running on 127.0.0.1:$REDIS_PORT (user $(redis_user), password in REDIS_URL)"; return; }
    sleep 0.1
  done
  die "redis failed to start; see $DATA/redis/redis.log"
}

# --- MariaDB: runs as the 'mysql' system user under root (mariadbd refuses root), as the caller otherwise.
mariadb_bin() { command -v mariadbd 2>/dev/null || { [ -x /usr/sbin/mariadbd ] && echo /usr/sbin/mariadbd; }; }
mariadb_wanted() { [ "${POOLBENCH_MARIADB:-1}" != 0 ] && [ -n "$(mariadb_bin)" ]; }
mariadb_pid() { [ -f "$DATA/mariadb/mariadb.pid" ] && cat "$DATA/mariadb/mariadb.pid"; }
mariadb_running() { local p; p=$(mariadb_pid 2>/dev/null) && [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
mariadb_root() { mariadb --no-defaults --protocol=socket --socket="$DATA/mariadb/mariadb.sock" -uroot "$@"; }

start_mariadb() {
  if mariadb_running; then say "mariadb already running on $MARIADB_PORT"; return; fi
  port_busy "$MARIADB_PORT" && die "port $MARIADB_PORT is already in use by another process (pid $(port_owner_pid "$MARIADB_PORT")). Stop it or set MARIADB_PORT."
  local dir="$DATA/mariadb" user_args=()
  mkdir -p "$dir"
  if is_root; then
    user_args=(--user=mysql)
    id mysql >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin mysql
    chown -R mysql "$dir"
    if ! runuser -u mysql -- test -x "$dir"; then
      local d="$DATA"
      while [ "$d" != "/" ]; do chmod o+x "$d" 2>/dev/null || true; d=$(dirname "$d"); done
    fi
  fi
  if [ ! -d "$dir/data/mysql" ]; then
    say "initialising mariadb in $dir/data"
    mariadb-install-db --no-defaults "${user_args[@]}" --datadir="$dir/data" --auth-root-authentication-method=socket \
      --skip-test-db >"$dir/install.log" 2>&1 || die "mariadb-install-db failed; see $dir/install.log"
  fi
  # Daemonised by hand: --daemonize does not exist in 10.11 and mysqld_safe reads the system my.cnf.
  setsid "$(mariadb_bin)" --no-defaults "${user_args[@]}" --datadir="$dir/data" --port="$MARIADB_PORT" --bind-address=127.0.0.1 \
    --socket="$dir/mariadb.sock" --pid-file="$dir/mariadb.pid" --log-error="$dir/error.log" --skip-log-bin \
    --max-connections=1000 --innodb-buffer-pool-size=128M --skip-name-resolve </dev/null >/dev/null 2>&1 &
  for _ in $(seq 1 100); do
    mariadb_root -e 'SELECT 1' >/dev/null 2>&1 && break
    sleep 0.1
  done
  mariadb_root -e 'SELECT 1' >/dev/null 2>&1 || die "mariadb failed to start; see $dir/error.log"
  # The app user may create per-run users (a connection limit, DB-side attribution) and databases.
  mariadb_root -e "CREATE USER IF NOT EXISTS '$PG_USER'@'127.0.0.1' IDENTIFIED BY '$PG_PASSWORD';
    GRANT ALL PRIVILEGES ON *.* TO '$PG_USER'@'127.0.0.1' WITH GRANT OPTION;
    CREATE DATABASE IF NOT EXISTS poolbench_lab;" || die "mariadb: could not create the $PG_USER user"
  say "mariadb running on 127.0.0.1:$MARIADB_PORT (user $PG_USER)"
}

stop_mariadb() {
  if mariadb_running; then
    local p; p=$(mariadb_pid); kill "$p"
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    say "mariadb stopped"
  else say "mariadb not running"; fi
}

# The inbox and its API answer only with MAILPIT_URL's credentials (http://user:password@host:port).
mailpit_auth() { env_value MAILPIT_URL | sed -n 's|^https\{0,1\}://\([^@/]*:[^@/]*\)@.*|\1|p'; }
mailpit_get() { # path: curl with the credentials on stdin, never on its command line
  printf 'user = "%s"\n' "$(mailpit_auth)" | curl -fsS -K - "http://127.0.0.1:$MAILPIT_HTTP_PORT$1"
}
mailpit_bin() { [ -x "$DATA/bin/mailpit" ] && echo "$DATA/bin/mailpit"; }
mailpit_pid() { [ -f "$DATA/mailpit/mailpit.pid" ] && cat "$DATA/mailpit/mailpit.pid"; }
mailpit_running() { local p; p=$(mailpit_pid 2>/dev/null) && [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
start_mailpit() {
  if mailpit_running; then say "mailpit already running on $MAILPIT_SMTP_PORT"; return; fi
  local bin; bin=$(mailpit_bin) || { say "mailpit not built (scripts/setup.sh builds it): mail is only logged"; return; }
  mkdir -p "$DATA/mailpit"
  local auth; auth=$(mailpit_auth)
  [ -n "$auth" ] || die "MAILPIT_URL in $DATA/poolbench.env carries no credentials (http://poolbench:PASSWORD@127.0.0.1:$MAILPIT_HTTP_PORT): refusing to start an inbox anyone can read"
  # its own session, so it outlives this script; messages kept in a file under .data; the UI and
  # API credentials in its environment (MP_UI_AUTH), never on a command line
  MP_UI_AUTH="$auth" setsid "$bin" --smtp "127.0.0.1:$MAILPIT_SMTP_PORT" --listen "127.0.0.1:$MAILPIT_HTTP_PORT" \
    --database "$DATA/mailpit/mailpit.db" --smtp-auth-accept-any --smtp-auth-allow-insecure \
    --disable-version-check >"$DATA/mailpit/mailpit.log" 2>&1 < /dev/null &
  for _ in $(seq 1 50); do
    if mailpit_get /api/v1/info >/dev/null 2>&1; then
      # the pid of mailpit itself (setsid may have forked), found by its own data file
      pgrep -f -- "--database $DATA/mailpit/mailpit.db" | head -1 > "$DATA/mailpit/mailpit.pid"
      say "mailpit running: smtp 127.0.0.1:$MAILPIT_SMTP_PORT, http://127.0.0.1:$MAILPIT_HTTP_PORT"
      return
    fi
    sleep 0.1
  done
  die "mailpit failed to start; see $DATA/mailpit/mailpit.log"
}
stop_mailpit() {
  # by its data file too: only this installation's mailpit, whatever the pid file says
  if mailpit_running || pgrep -f -- "--database $DATA/mailpit/mailpit.db" >/dev/null; then
    mailpit_running && kill "$(mailpit_pid)" 2>/dev/null
    pkill -f -- "--database $DATA/mailpit/mailpit.db" 2>/dev/null || true
    # gone before anything starts again: a new one would find its ports still taken
    for _ in $(seq 1 50); do pgrep -f -- "--database $DATA/mailpit/mailpit.db" >/dev/null || break; sleep 0.1; done
    rm -f "$DATA/mailpit/mailpit.pid"; say "mailpit stopped"
  else say "mailpit not running"; fi
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
  start) write_env; ensure_binaries; start_pg; start_redis; if mariadb_wanted; then start_mariadb; fi; start_mailpit ;;
  stop) [ -n "$(pg_bindir)" ] && stop_pg; command -v redis-server >/dev/null && stop_redis; [ -n "$(mariadb_bin)" ] && stop_mariadb; stop_mailpit; true ;;
  status)
    rc=0
    if [ -n "$(pg_bindir)" ] && pg_running; then say "postgres: running on $PG_PORT"; else say "postgres: stopped"; rc=1; fi
    if redis_running; then say "redis: running on $REDIS_PORT"; else say "redis: stopped"; rc=1; fi
    if mariadb_wanted; then if mariadb_running; then say "mariadb: running on $MARIADB_PORT"; else say "mariadb: stopped"; rc=1; fi; fi
    exit $rc ;;
  restart-redis) write_env; stop_redis; start_redis ;;
  restart-mailpit) write_env; stop_mailpit; start_mailpit ;;
  url) echo "postgresql://$PG_USER:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DB" ;;
  mariadb-url) echo "mysql://$PG_USER:$PG_PASSWORD@127.0.0.1:$MARIADB_PORT/poolbench_lab" ;;
  *) echo "usage: $0 start|stop|status|restart-redis|restart-mailpit|url|mariadb-url" >&2; exit 2 ;;
esac
