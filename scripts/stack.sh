#!/usr/bin/env bash
# Starts or stops the PoolBench web app and worker (background processes, pid files in .data/run).
# Usage: scripts/stack.sh start|stop|status [worker]   (with `worker`: only the worker, no build)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
RUN="$DATA/run"; LOGS="$DATA/logs"
mkdir -p "$RUN" "$LOGS"
WEB_PORT=3000

alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

start_one() { # name, command...
  local name=$1; shift
  if alive "$name"; then say "$name already running (pid $(cat "$RUN/$name.pid"))"; return; fi
  # setsid: the process gets its own group, so stop can end it and everything it started.
  setsid nohup "$@" >>"$LOGS/$name.log" 2>&1 < /dev/null &
  echo $! > "$RUN/$name.pid"
  say "$name started (pid $!, log .data/logs/$name.log)"
}

# TERM, wait up to $2 seconds for the process itself to exit (the worker uses it to stop its runs
# with their data and truthful statuses), then KILL whatever is left in its group.
stop_one() { # name, seconds to wait
  local name=$1 wait_s=${2:-10}
  if alive "$name"; then
    local pid; pid=$(cat "$RUN/$name.pid")
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 $((wait_s * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && say "$name did not stop in ${wait_s} s: killing it"
    kill -KILL -- "-$pid" 2>/dev/null || true
    say "$name stopped"
  fi
  rm -f "$RUN/$name.pid"
}

wait_healthy() {
  local out=""
  for _ in $(seq 1 120); do
    out=$(curl -fsS "http://localhost:$WEB_PORT/api/health" 2>/dev/null) && echo "$out" | grep -q '"status":"ok"' && { echo "$out"; return 0; }
    sleep 0.5
  done
  echo "$out"; return 1
}

# node itself, not npx/tsx wrappers: the pid file must name the worker process, so that stop
# waits for its shutdown grace instead of for a wrapper that exits at once (which left k6, the
# targets and a `running` run behind).
start_worker() { start_one worker node --import tsx apps/worker/src/index.ts; }

# What a running process was started from: the web app's build id, and for the worker (which runs
# its sources through tsx) the commit plus any uncommitted change under apps/worker and packages.
stamp_of() {
  case $1 in
    web) cat apps/web/.next/BUILD_ID 2>/dev/null || echo none ;;
    worker) { git rev-parse HEAD && git diff HEAD -- apps/worker packages; } 2>/dev/null | sha256sum | cut -d' ' -f1 ;;
  esac
}
# A second `make up` after `git pull` (or an edit) must not leave the old worker running, or the
# old web server answering with a build whose files were just replaced (its pages fail to load):
# a process started from something else is restarted. One without a stamp is too.
restart_if_stale() { # name
  local name=$1
  alive "$name" || return 0
  [ "$(cat "$RUN/$name.stamp" 2>/dev/null)" = "$(stamp_of "$name")" ] && return 0
  say "$name runs an older build: restarting it"
  if [ "$name" = worker ]; then stop_worker; else stop_one web 20; fi
}
# the worker's grace (WORKER_SHUTDOWN_GRACE_MS, 20 s) + k6's stop (4 s) + writing the end state
stop_worker() { stop_one worker "${WORKER_STOP_WAIT_S:-40}"; }

case "${1:-}:${2:-}" in
  start:)
    load_env
    if ! alive web && port_busy "$WEB_PORT"; then
      die "port $WEB_PORT is already in use by another process (pid $(port_pid $WEB_PORT)); stop it first."
    fi
    say "building the web app and the CLI bundle it serves (cached when unchanged)"
    npx turbo run build --filter=@poolbench/web --filter=@poolbench/cli --output-logs=errors-only
    restart_if_stale worker
    restart_if_stale web
    start_worker
    stamp_of worker > "$RUN/worker.stamp"
    start_one web npm run -s start -w @poolbench/web
    stamp_of web > "$RUN/web.stamp"
    if health=$(wait_healthy); then
      say "health: $health"
      # first start only (the script does nothing once the demo team has an experiment); tests opt out
      if [ "${POOLBENCH_FIRST_DEMO:-1}" != 0 ]; then
        alive first-demo || start_one first-demo node --import tsx apps/worker/src/cli/first-demo.ts
        say "demo team: on the first start the seed 004 demo experiment runs (about 1 min); its share link is printed to .data/logs/first-demo.log"
      fi
    else
      die "PoolBench did not become healthy in 60 s: ${health:-no answer}. See .data/logs/web.log and .data/logs/worker.log"
    fi ;;
  start:worker) load_env; restart_if_stale worker; start_worker; stamp_of worker > "$RUN/worker.stamp" ;;
  stop:) stop_one first-demo 2; stop_one web 20; stop_worker ;;
  stop:worker) stop_worker ;;
  status:) for n in web worker; do alive $n && say "$n: running (pid $(cat "$RUN/$n.pid"))" || say "$n: stopped"; done ;;
  *) echo "usage: $0 start|stop|status [worker]" >&2; exit 2 ;;
esac
