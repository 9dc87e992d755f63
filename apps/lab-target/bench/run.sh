#!/usr/bin/env bash
# Reproduces the five seed experiments against the lab target on this machine, scaled down,
# REPEATS times each with the configurations interleaved (A B C A B C ...), every run on
# freshly started targets. Writes the tables and readings to docs/benchmarks.md (section
# lab-target-seeds). Every scaled parameter has a knob below and is printed in the section.
# Env: SEEDS (default "000 001 002 003 004"), REPEATS (5), K6_BIN, LAB_BENCH_PG
#      (postgres://user:pass@host:port, no db), NO_WRITE=1 to print the section instead,
#      FROM_RESULTS=/tmp/lab-bench.XXXXXX to summarize an earlier run's raw results again
#      (with that run's parameters) without running anything.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
APP="$(cd "$HERE/.." && pwd)"
ROOT="$(cd "$APP/../.." && pwd)"

# summarize <results.ndjson>: the section, to stdout (NO_WRITE=1) or into docs/benchmarks.md.
# summarize.mjs imports @poolbench/stats (TypeScript sources), hence tsx (from the root).
summarize() {
  cd "$ROOT"
  if [ "${NO_WRITE:-}" = 1 ]; then
    node --import tsx "$HERE/summarize.mjs" "$1"
  else
    node --import tsx "$HERE/summarize.mjs" "$1" | node "$ROOT/scripts/bench-section.mjs" lab-target-seeds
  fi
}
if [ -n "${FROM_RESULTS:-}" ]; then
  # shellcheck source=/dev/null
  . "$FROM_RESULTS/summary.env"
  summarize "$FROM_RESULTS/results.ndjson"
  exit 0
fi
REPEATS="${REPEATS:-5}"  # 4 per side can reach p < 0.05 only if every run is separated; 5 leaves room
SEEDS="${SEEDS:-000 001 002 003 004}"
for s in $SEEDS; do
  case "$s" in 000 | 001 | 002 | 003 | 004) ;; *) echo "SEEDS: unknown seed '$s' (000 001 002 003 004)" >&2; exit 2 ;; esac
done
want() { case " $SEEDS " in *" $1 "*) return 0 ;; esac; return 1; }
PG="${LAB_BENCH_PG:-postgres://poolbench:poolbench@127.0.0.1:54329}"
DB=poolbench_lab_bench
DSN="$PG/$DB"
PG_HOSTPART="${PG#*@}"
# Seed 004's "too many clients" needs a connection ceiling the load can hit. This Postgres
# allows 200 connections and is shared with other work, so the open-per-request runs use a
# role with CONNECTION LIMIT instead (refusals are the same SQLSTATE 53300).
ROLE_LIMIT="${ROLE_LIMIT:-40}"
LIMITED_DSN="postgres://poolbench_lab_limited:poolbench@$PG_HOSTPART/$DB"
OUT="$(mktemp -d /tmp/lab-bench.XXXXXX)"
RESULTS="$OUT/results.ndjson"
: >"$RESULTS"
PARAMS=("REPEATS=$REPEATS")
PARAM_NAMES=()
# param NAME DEFAULT: NAME from the environment or DEFAULT, exported for summarize.mjs and
# listed in the section's command line.
param() {
  local v="${!1:-$2}"
  export "$1=$v"
  PARAM_NAMES+=("$1")
  case "$v" in *' '*) PARAMS+=("$1='$v'") ;; *) PARAMS+=("$1=$v") ;; esac
}

say() { printf '[lab-bench] %s\n' "$*" >&2; }

bash "$APP/scripts/build.sh" >&2
BIN="$APP/bin/lab-target"

K6="${K6_BIN:-}"
if [ -z "$K6" ]; then
  for c in "$ROOT/packages/k6/bin/k6" /tmp/k6plain/k6; do
    if [ -x "$c" ]; then K6="$c"; break; fi
  done
fi
if [ -z "$K6" ]; then
  say "no k6 found: building plain k6 into /tmp/k6plain (~1.5 min)"
  GOBIN=/tmp/k6plain go install go.k6.io/k6@v1.8.1
  K6=/tmp/k6plain/k6
fi
say "k6: $K6 ($("$K6" version 2>/dev/null | head -1))"

"$BIN" setup --database-url="$DSN" >&2
psql "$PG/$DB" -v ON_ERROR_STOP=1 -q >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'poolbench_lab_limited') THEN
    CREATE ROLE poolbench_lab_limited LOGIN PASSWORD 'poolbench' CONNECTION LIMIT $ROLE_LIMIT;
  ELSE
    ALTER ROLE poolbench_lab_limited CONNECTION LIMIT $ROLE_LIMIT;
  END IF;
END \$\$;
GRANT CONNECT ON DATABASE $DB TO poolbench_lab_limited;
SQL

# Helper processes (blob stores, link proxy) and the targets of the current run.
HELPER_PIDS=()
TARGET_PIDS=()
URLS=()
SAMPLER_PID=""
cleanup() {
  local p
  for p in "${TARGET_PIDS[@]}" "${HELPER_PIDS[@]}" ${SAMPLER_PID:+"$SAMPLER_PID"}; do
    kill "$p" 2>/dev/null || true
  done
}
trap cleanup EXIT

wait_line() { # file -> prints the address of its "listening <addr>" line
  for _ in $(seq 1 100); do
    if grep -q '^listening ' "$1" 2>/dev/null; then awk '/^listening /{print $2; exit}' "$1"; return 0; fi
    sleep 0.05
  done
  say "no listening line in $1"; return 1
}

# start_helper <name> <args...>: a lab-target helper (blobstore, linkproxy); sets HELPER_ADDR.
start_helper() {
  local name="$1"; shift
  "$BIN" "$@" >"$OUT/$name.out" 2>"$OUT/$name.log" &
  HELPER_PIDS+=("$!")
  HELPER_ADDR="$(wait_line "$OUT/$name.out")"
}

stop_helpers() {
  local p
  for p in "${HELPER_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${HELPER_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  HELPER_PIDS=()
}

# start_target <run-id> <env assignments...> -- <flags...>: one more instance (its number is
# its position); appends its URL to URLS and its pid to TARGET_PIDS, waits for /ready and
# scrapes /metrics once ready (start-up state: prewarmed connections, RSS).
start_target() {
  local id="$1"; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local n=$(( ${#TARGET_PIDS[@]} + 1 ))
  local tag="$id.i$n"
  env "${envs[@]}" "$BIN" serve --listen=127.0.0.1:0 --instance-id="$n" "$@" \
    >"$OUT/$tag.target.out" 2>"$OUT/$tag.target.log" &
  TARGET_PIDS+=("$!")
  local url
  url="$(wait_line "$OUT/$tag.target.out")"
  URLS+=("$url")
  for _ in $(seq 1 400); do
    if curl -fsS -o /dev/null "$url/ready" 2>/dev/null; then
      curl -fsS "$url/metrics" >"$OUT/$tag.ready-metrics.txt" || true
      return 0
    fi
    sleep 0.05
  done
  say "target $tag never became ready:"; tail -5 "$OUT/$tag.target.log" >&2; return 1
}

stop_targets() {
  local p
  for p in "${TARGET_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${TARGET_PIDS[@]}"; do wait "$p" || true; done
  TARGET_PIDS=()
  URLS=()
  if [ -n "$SAMPLER_PID" ]; then wait "$SAMPLER_PID" 2>/dev/null || true; SAMPLER_PID=""; fi
}

# sample_proc <pid> <file>: once a second "epoch_us cpu_ticks rss_kB hwm_kB" of the process
# (utime+stime from /proc/<pid>/stat, VmRSS and VmHWM from /proc/<pid>/status) until it exits.
sample_proc() {
  local pid="$1" file="$2" stat rest rss hwm ticks line
  local -a f
  : >"$file"
  while stat="$(cat "/proc/$pid/stat" 2>/dev/null)"; do
    rest="${stat##*) }"
    read -r -a f <<<"$rest"
    [ "${f[0]}" = Z ] && break
    rss="" hwm=""
    while read -r line; do
      case "$line" in VmRSS:*) rss="${line//[!0-9]/}" ;; VmHWM:*) hwm="${line//[!0-9]/}" ;; esac
    done 2>/dev/null <"/proc/$pid/status" || break
    ticks=$(( f[11] + f[12] ))
    printf '%s %s %s %s\n' "${EPOCHREALTIME/./}" "$ticks" "$rss" "$hwm" >>"$file"
    sleep 1
  done
}

# run_k6 <seed> <config> <repeat> <script> <k6 -e args...>: load against URLS (BASE_URL is the
# first, BASE_URLS all), then a /metrics scrape per instance and one results line.
run_k6() {
  local seed="$1" config="$2" rep="$3" script="$4"; shift 4
  local id="s$seed-$config-r$rep"
  id="${id//[^A-Za-z0-9.+@-]/_}"
  local urls_csv
  urls_csv="$(IFS=,; echo "${URLS[*]}")"
  local load t0 t1
  load="$(cut -d' ' -f1 /proc/loadavg)"
  t0="${EPOCHREALTIME/./}"
  "$K6" run --address "" --include-system-env-vars=false --no-usage-report --quiet --no-color \
    -e BASE_URL="${URLS[0]}" -e BASE_URLS="$urls_csv" -e SUMMARY_FILE="$OUT/$id.summary.json" "$@" "$HERE/$script" \
    >"$OUT/$id.k6.log" 2>&1 || say "k6 exited non-zero for $id (see $OUT/$id.k6.log)"
  t1="${EPOCHREALTIME/./}"
  local metrics=() ready=() i
  for i in "${!URLS[@]}"; do
    curl -fsS "${URLS[$i]}/metrics" >"$OUT/$id.i$((i + 1)).metrics.txt" || true
    metrics+=("\"$OUT/$id.i$((i + 1)).metrics.txt\"")
    ready+=("\"$OUT/$CUR_START_ID.i$((i + 1)).ready-metrics.txt\"")
  done
  local proc=""
  [ -n "$SAMPLER_PID" ] && proc="$OUT/$CUR_START_ID.proc.txt"
  printf '{"seed":"%s","config":"%s","repeat":%s,"summary":"%s","metrics":[%s],"readyMetrics":[%s],"proc":"%s","loadStartUs":%s,"loadEndUs":%s,"loadavg":%s}\n' \
    "$seed" "$config" "$rep" "$OUT/$id.summary.json" "$(IFS=,; echo "${metrics[*]}")" "$(IFS=,; echo "${ready[*]}")" \
    "$proc" "$t0" "$t1" "$load" >>"$RESULTS"
  say "done $id"
}

# start <run-id> <instances> <env assignments...> -- <flags...>: start the run's targets.
start() {
  local id="$1" n="$2"; shift 2
  CUR_START_ID="$id"
  local _
  for _ in $(seq 1 "$n"); do start_target "$id" "$@"; done
}

# start_sampled: like start with one instance, sampling its CPU and memory from /proc.
start_sampled() {
  local id="$1"; shift
  start "$id" 1 "$@"
  sample_proc "${TARGET_PIDS[0]}" "$OUT/$id.proc.txt" &
  SAMPLER_PID=$!
}

START=$(date +%s)
LOAD_BEFORE="$(cut -d' ' -f1 /proc/loadavg)"

# --- Seed 004: open/close per request vs pool per request vs one shared pool, c=100 ----
if want 004; then
  # A run ends after ITERATIONS requests or MAX_DURATION, whichever first: pool-per-request
  # manages ~15 req/s here and would otherwise take minutes; throughput is completed/elapsed.
  param SEED004_ITERATIONS 2000
  param SEED004_MAX_DURATION 20s
  param ROLE_LIMIT "$ROLE_LIMIT"
  for rep in $(seq 1 "$REPEATS"); do
    for config in per-request pool-per-request shared; do
      case "$config" in
        per-request) flags=(--strategy=per-request) ;;
        pool-per-request) flags=(--strategy=pool-per-request --max-conns=100 --min-conns=5) ;;
        shared) flags=(--strategy=lazy --max-conns=20 --min-conns=5) ;;
      esac
      start "s004-$config-$rep" 1 -- --database-url="$LIMITED_DSN" "${flags[@]}"
      run_k6 004 "$config" "$rep" seed004-health.js -e VUS=100 -e ITERATIONS="$SEED004_ITERATIONS" \
        -e MAX_DURATION="$SEED004_MAX_DURATION"
      stop_targets
    done
  done
fi

# --- Seed 000: uploads over TLS to the blob store, lazy ("default") vs prewarm ------------
if want 000; then
  param SEED000_TCS "1 2 3 4"
  TCS="$SEED000_TCS"
  # Two blob stores: plain loopback, and one that adds RTT_MS once per new connection before
  # the TLS handshake, standing in for the network between the seed's app and its MinIO.
  param RTT_MS 25
  start_helper blobstore blobstore --listen=127.0.0.1:0 --tls-self-signed
  BS_URL="$HELPER_ADDR"
  start_helper blobstore-rtt blobstore --listen=127.0.0.1:0 --tls-self-signed --handshake-delay="${RTT_MS}ms"
  BS2_URL="$HELPER_ADDR"
  up() { # <config> <blob store url>: flags of a seed-000 target
    UPFLAGS=(--database-url="$DSN" --strategy="${1%%+*}" --max-conns=10 --upstream-url="$2" --upstream-insecure --upstream-conns=100)
  }
  case " $TCS " in *" 1 "*)
    for rep in $(seq 1 "$REPEATS"); do
      for config in lazy prewarm "lazy+rtt$RTT_MS" "prewarm+rtt$RTT_MS"; do
        url="$BS_URL"
        case "$config" in *rtt*) url="$BS2_URL" ;; esac
        up "$config" "$url"
        start "s000-tc1-$config-$rep" 1 -- "${UPFLAGS[@]}"
        run_k6 000 "tc1/$config" "$rep" seed000-upload.js -e SHAPE=burst -e VUS=100 -e RAMP=2s -e HOLD=8s
        stop_targets
      done
    done
  ;; esac
  case " $TCS " in *" 2 "*)
    param SEED000_TC2_VUS 150
    param SEED000_TC2_RAMP 8s
    param SEED000_TC2_BYTES 1048576
    for rep in $(seq 1 "$REPEATS"); do
      for config in lazy prewarm; do
        up "$config" "$BS_URL"
        start "s000-tc2-$config-$rep" 1 -- "${UPFLAGS[@]}"
        run_k6 000 "tc2/$config" "$rep" seed000-upload.js -e SHAPE=ramp -e VUS="$SEED000_TC2_VUS" -e RAMP="$SEED000_TC2_RAMP" \
          -e BYTES="$SEED000_TC2_BYTES"
        stop_targets
      done
    done
  ;; esac
  case " $TCS " in *" 3 "*)
    param SEED000_TC3_VUS 250
    param SEED000_TC3_BASE_VUS 25
    param SEED000_TC3_SPIKE_HOLD 2s
    param SEED000_TC3_BASE_HOLD 1s
    for rep in $(seq 1 "$REPEATS"); do
      for config in lazy prewarm; do
        up "$config" "$BS_URL"
        start "s000-tc3-$config-$rep" 1 -- "${UPFLAGS[@]}"
        run_k6 000 "tc3/$config" "$rep" seed000-upload.js -e SHAPE=spike -e VUS="$SEED000_TC3_VUS" \
          -e BASE_VUS="$SEED000_TC3_BASE_VUS" -e SPIKE_HOLD="$SEED000_TC3_SPIKE_HOLD" -e BASE_HOLD="$SEED000_TC3_BASE_HOLD"
        stop_targets
      done
    done
  ;; esac
  case " $TCS " in *" 4 "*)
    param SEED000_TC4_VUS 100
    param SEED000_TC4_DURATION 15s
    param SEED000_TC4_SLEEP 0.5
    for rep in $(seq 1 "$REPEATS"); do
      for config in lazy prewarm; do
        up "$config" "$BS_URL"
        start_sampled "s000-tc4-$config-$rep" -- "${UPFLAGS[@]}"
        sleep 1 # idle after ready: the seed's idle baseline (RSS before any traffic)
        run_k6 000 "tc4/$config" "$rep" seed000-upload.js -e SHAPE=sustained -e VUS="$SEED000_TC4_VUS" \
          -e DURATION="$SEED000_TC4_DURATION" -e SLEEP="$SEED000_TC4_SLEEP"
        stop_targets
      done
    done
  ;; esac
  stop_helpers
fi

# --- Seed 002: p99 of GET /roles at fixed rates, pool size 1 vs 5 vs 10, GOMAXPROCS=1 ---
# The seed's 500/1000/2000 req/s were for its machine; here 250/s is below what one
# GOMAXPROCS=1 instance can answer and 500/s is at its edge. With 3 instances k6 sends the
# same total rate round robin (the seed's nginx), each instance with its own pool.
if want 002; then
  param SEED002_RATES "250 500"
  param SEED002_INSTANCES "1 3"
  for n in $SEED002_INSTANCES; do
    for rate in $SEED002_RATES; do
      for rep in $(seq 1 "$REPEATS"); do
        for size in 1 5 10; do
          start "s002-x$n-$size-$rate-$rep" "$n" GOMAXPROCS=1 -- --database-url="$DSN" --strategy=lazy --max-conns="$size"
          run_k6 002 "x$n/max$size@$rate" "$rep" seed002-roles.js -e RATE="$rate" -e DURATION=5s
          stop_targets
        done
      done
    done
  done
fi

# --- Seed 001: large result sets at many users; is the database link the bottleneck? ------
# One runtime here (Go, streaming json.Encoder like the seed's Go variant), so the runtime
# comparison is not reproduced. What is varied instead is what the write-up blamed: the link
# to the database (loopback vs a linkproxy adding LINK_RTT_MS per round trip, the seed's
# 20-100 ms) and how many connections cross it (pool max), at the same query and load.
if want 001; then
  param SEED001_ROWS 1000
  param SEED001_FIELDS 40
  param SEED001_VUS 50
  param SEED001_RAMP 2s
  param SEED001_HOLD 4s
  param SEED001_POOLS "5 50"
  param SEED001_LINK_RTT_MS 50
  LINK_RTT_MS="$SEED001_LINK_RTT_MS"
  # Half the round trip each way, in µs so that odd values stay exact.
  start_helper linkproxy linkproxy --listen=127.0.0.1:0 --upstream="${PG_HOSTPART%%/*}" --delay="$((LINK_RTT_MS * 500))us"
  LINK_DSN="${PG%@*}@$HELPER_ADDR/$DB"
  for rep in $(seq 1 "$REPEATS"); do
    for pool in $SEED001_POOLS; do
      for link in loopback "link$LINK_RTT_MS"; do
        dsn="$DSN"
        [ "$link" = loopback ] || dsn="$LINK_DSN"
        start "s001-$pool-$link-$rep" 1 -- --database-url="$dsn" --strategy=lazy --max-conns="$pool"
        run_k6 001 "pool$pool/$link" "$rep" seed001-query.js -e VUS="$SEED001_VUS" -e RAMP="$SEED001_RAMP" \
          -e HOLD="$SEED001_HOLD" -e ROWS="$SEED001_ROWS" -e FIELDS="$SEED001_FIELDS"
        stop_targets
      done
    done
  done
  stop_helpers
fi

# --- Seed 003: pool strategies under a 5x burst of 10-800 ms queries, 3:1 reads/writes -----
# Pool sizes are the seed's divided by POOL_DIVISOR (rounded): Postgres here allows 200
# connections and is shared, the seed's elastic pool alone went to 200. The arrival rate is
# scaled with them: BASE req/s of ~0.4 s queries needs ~6 connections (inside the smallest
# pool), the 5x burst ~30 (beyond fixed's, as the seed's burst was beyond its fixed pool).
# Every strategy gets the same acquire timeout (the seed's advice: fail fast at 1 s).
if want 003; then
  param SEED003_STRATEGIES "fixed elastic prewarm adaptive"
  param SEED003_BASE 15
  param SEED003_POOL_DIVISOR 4
  param SEED003_ACQUIRE_TIMEOUT 1s
  param SEED003_WARM 1s
  param SEED003_STEADY 3s
  param SEED003_BURST 5s
  param SEED003_COOL 1s
  S3_DIV="$SEED003_POOL_DIVISOR"
  sz() { echo $(( ($1 + S3_DIV / 2) / S3_DIV )); }
  for rep in $(seq 1 "$REPEATS"); do
    for strat in $SEED003_STRATEGIES; do
      # The seed's sizes: fixed 50; elastic 20..200, idle 60 s; prewarm 80, keepalive 30 s,
      # lifetime 10 min; hybrid 40..150, +10 when the average wait > 100 ms, -5 after 5 idle
      # minutes; partitioned 25 per shard. Priority and borrowing sizes are not given: fixed's.
      case "$strat" in
        fixed) flags=(--max-conns="$(sz 50)") ;;
        elastic) flags=(--min-conns="$(sz 20)" --max-conns="$(sz 200)" --idle-timeout="$((60 / S3_DIV))s") ;;
        prewarm) flags=(--max-conns="$(sz 80)" --keepalive=30s --max-lifetime=10m) ;;
        adaptive) flags=(--min-conns="$(sz 40)" --initial-conns="$(sz 40)" --max-conns="$(sz 150)" --grow-step="$(sz 10)"
          --shrink-step="$(sz 5)" --grow-wait-threshold=100ms --shrink-idle=5m) ;;
        partitioned) flags=(--shards=4 --max-conns="$(sz 25)") ;;
        priority | borrowing) flags=(--max-conns="$(sz 50)") ;;
        *) say "SEED003_STRATEGIES: unknown strategy $strat"; exit 2 ;;
      esac
      start "s003-$strat-$rep" 1 -- --database-url="$DSN" --strategy="$strat" --acquire-timeout="$SEED003_ACQUIRE_TIMEOUT" "${flags[@]}"
      run_k6 003 "$strat" "$rep" seed003-burst.js -e BASE="$SEED003_BASE" -e WARM="$SEED003_WARM" \
        -e STEADY="$SEED003_STEADY" -e BURST="$SEED003_BURST" -e COOL="$SEED003_COOL"
      stop_targets
    done
  done
fi

ELAPSED=$(( $(date +%s) - START ))
say "runs finished in ${ELAPSED}s; raw results in $OUT"

export BENCH_CMD="SEEDS='$SEEDS' bash apps/lab-target/bench/run.sh (${PARAMS[*]})"
export BENCH_ELAPSED_S="$ELAPSED"
BENCH_LOAD="$LOAD_BEFORE / $(cut -d' ' -f1 /proc/loadavg)"
export BENCH_LOAD
BENCH_K6="$("$K6" version 2>/dev/null | head -1)"
export BENCH_K6
CLK_TCK="$(getconf CLK_TCK)"
export CLK_TCK
# What summarize.mjs reads besides the results, kept with them for FROM_RESULTS.
for name in BENCH_CMD BENCH_ELAPSED_S BENCH_LOAD BENCH_K6 CLK_TCK "${PARAM_NAMES[@]}"; do
  printf 'export %s=%q\n' "$name" "${!name}"
done >"$OUT/summary.env"
summarize "$RESULTS"
