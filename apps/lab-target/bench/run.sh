#!/usr/bin/env bash
# Reproduces seeds 004, 000 and 002 against the lab target on this machine, scaled down,
# REPEATS times each with the configurations interleaved (A B C A B C ...), every run on a
# freshly started target. Writes the table to docs/benchmarks.md (section lab-target-seeds).
# Env: K6_BIN, REPEATS (default 3), LAB_BENCH_PG (postgres://user:pass@host:port, no db),
#      NO_WRITE=1 to print the section instead of writing it.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
APP="$(cd "$HERE/.." && pwd)"
ROOT="$(cd "$APP/../.." && pwd)"
REPEATS="${REPEATS:-3}"
PG="${LAB_BENCH_PG:-postgres://poolbench:poolbench@127.0.0.1:54329}"
DB=poolbench_lab_bench
DSN="$PG/$DB"
# Seed 004's "too many clients" needs a connection ceiling the load can hit. This Postgres
# allows 200 connections and is shared with other work, so the open-per-request runs use a
# role with CONNECTION LIMIT instead (refusals are the same SQLSTATE 53300).
ROLE_LIMIT="${ROLE_LIMIT:-40}"
PG_HOSTPART="${PG#*@}"
LIMITED_DSN="postgres://poolbench_lab_limited:poolbench@$PG_HOSTPART/$DB"
OUT="$(mktemp -d /tmp/lab-bench.XXXXXX)"
RESULTS="$OUT/results.ndjson"
: >"$RESULTS"

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

BS_PID=""
TARGET_PID=""
cleanup() {
  [ -n "$TARGET_PID" ] && kill "$TARGET_PID" 2>/dev/null || true
  [ -n "$BS_PID" ] && kill "$BS_PID" "${BS2_PID:-}" 2>/dev/null || true
}
trap cleanup EXIT

wait_line() { # file -> prints the URL of its "listening <url>" line
  for _ in $(seq 1 100); do
    if grep -q '^listening ' "$1" 2>/dev/null; then awk '/^listening /{print $2; exit}' "$1"; return 0; fi
    sleep 0.05
  done
  say "no listening line in $1"; return 1
}

# start_target <run-id> <env assignments...> -- <flags...>; sets URL and TARGET_PID
start_target() {
  local id="$1"; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" "$BIN" serve --listen=127.0.0.1:0 --instance-id=1 "$@" \
    >"$OUT/$id.target.out" 2>"$OUT/$id.target.log" &
  TARGET_PID=$!
  URL="$(wait_line "$OUT/$id.target.out")"
  for _ in $(seq 1 400); do
    if curl -fsS -o /dev/null "$URL/ready" 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  say "target $id never became ready:"; tail -5 "$OUT/$id.target.log" >&2; return 1
}

stop_target() {
  kill -TERM "$TARGET_PID"
  wait "$TARGET_PID" || true
  TARGET_PID=""
}

# run_k6 <seed> <config> <repeat> <script> <k6 -e args...>
run_k6() {
  local seed="$1" config="$2" rep="$3" script="$4"; shift 4
  local id="s$seed-$config-r$rep"
  "$K6" run --address "" --include-system-env-vars=false --no-usage-report --quiet --no-color \
    -e BASE_URL="$URL" -e SUMMARY_FILE="$OUT/$id.summary.json" "$@" "$HERE/$script" \
    >"$OUT/$id.k6.log" 2>&1 || say "k6 exited non-zero for $id (see $OUT/$id.k6.log)"
  curl -fsS "$URL/metrics" >"$OUT/$id.metrics.txt" || true
  printf '{"seed":"%s","config":"%s","repeat":%s,"summary":"%s","metrics":"%s"}\n' \
    "$seed" "$config" "$rep" "$OUT/$id.summary.json" "$OUT/$id.metrics.txt" >>"$RESULTS"
  say "done $id"
}

START=$(date +%s)
LOAD_BEFORE="$(cut -d' ' -f1 /proc/loadavg)"

# --- Seed 004: open/close per request vs pool per request vs one shared pool, c=100 ----
ITER="${SEED004_ITERATIONS:-2000}"
# A run ends after ITER requests or MAXDUR, whichever first: pool-per-request manages
# ~15 req/s here and would otherwise take minutes; throughput is completed/elapsed.
MAXDUR="${SEED004_MAX_DURATION:-20s}"
for rep in $(seq 1 "$REPEATS"); do
  for config in per-request pool-per-request shared; do
    case "$config" in
      per-request) flags=(--strategy=per-request) ;;
      pool-per-request) flags=(--strategy=pool-per-request --max-conns=100 --min-conns=5) ;;
      shared) flags=(--strategy=lazy --max-conns=20 --min-conns=5) ;;
    esac
    start_target "s004-$config-$rep" -- --database-url="$LIMITED_DSN" "${flags[@]}"
    run_k6 004 "$config" "$rep" seed004-health.js -e VUS=100 -e ITERATIONS="$ITER" -e MAX_DURATION="$MAXDUR"
    stop_target
  done
done

# --- Seed 000: cold-start burst of 20 KB uploads over TLS, lazy vs prewarm --------------
# Two blob stores: plain loopback, and one that adds RTT_MS once per new connection before
# the TLS handshake, standing in for the network between the seed's app and its MinIO.
RTT_MS="${RTT_MS:-25}"
"$BIN" blobstore --listen=127.0.0.1:0 --tls-self-signed >"$OUT/blobstore.out" 2>"$OUT/blobstore.log" &
BS_PID=$!
BS_URL="$(wait_line "$OUT/blobstore.out")"
"$BIN" blobstore --listen=127.0.0.1:0 --tls-self-signed --handshake-delay="${RTT_MS}ms" \
  >"$OUT/blobstore-rtt.out" 2>"$OUT/blobstore-rtt.log" &
BS2_PID=$!
BS2_URL="$(wait_line "$OUT/blobstore-rtt.out")"
for rep in $(seq 1 "$REPEATS"); do
  for config in lazy prewarm "lazy+rtt$RTT_MS" "prewarm+rtt$RTT_MS"; do
    url="$BS_URL"
    case "$config" in *rtt*) url="$BS2_URL" ;; esac
    start_target "s000-$config-$rep" -- --database-url="$DSN" --strategy="${config%%+*}" --max-conns=10 \
      --upstream-url="$url" --upstream-insecure --upstream-conns=100
    run_k6 000 "$config" "$rep" seed000-upload.js -e VUS=100 -e RAMP=2s -e HOLD=8s
    stop_target
  done
done
kill "$BS_PID" "$BS2_PID"; wait "$BS_PID" "$BS2_PID" 2>/dev/null || true; BS_PID=""

# --- Seed 002: p99 of GET /roles at fixed rates, pool size 1 vs 5 vs 10, GOMAXPROCS=1 ---
# The seed's 500/1000/2000 req/s were for its machine; here 250/s is below what one
# GOMAXPROCS=1 instance can answer and 500/s is at its edge.
RATES="${SEED002_RATES:-250 500}"
for rate in $RATES; do
  for rep in $(seq 1 "$REPEATS"); do
    for size in 1 5 10; do
      start_target "s002-$size-$rate-$rep" GOMAXPROCS=1 -- --database-url="$DSN" --strategy=lazy --max-conns="$size"
      run_k6 002 "max$size@$rate" "$rep" seed002-roles.js -e RATE="$rate" -e DURATION=5s
      stop_target
    done
  done
done

ELAPSED=$(( $(date +%s) - START ))
say "runs finished in ${ELAPSED}s; raw results in $OUT"

export BENCH_CMD="bash apps/lab-target/bench/run.sh (REPEATS=$REPEATS, SEED004_ITERATIONS=$ITER, SEED004_MAX_DURATION=$MAXDUR, SEED002_RATES='$RATES', ROLE_LIMIT=$ROLE_LIMIT, RTT_MS=$RTT_MS)"
export BENCH_ELAPSED_S="$ELAPSED"
export BENCH_LOAD="$LOAD_BEFORE / $(cut -d' ' -f1 /proc/loadavg)"
export SEED004_ITERATIONS="$ITER" SEED004_MAX_DURATION="$MAXDUR"
export BENCH_K6="$("$K6" version 2>/dev/null | head -1)"
if [ "${NO_WRITE:-}" = 1 ]; then
  node "$HERE/summarize.mjs" "$RESULTS"
else
  node "$HERE/summarize.mjs" "$RESULTS" | node "$ROOT/scripts/bench-section.mjs" lab-target-seeds
fi
