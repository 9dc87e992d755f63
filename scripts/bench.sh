#!/usr/bin/env bash
# make bench: every benchmark, each writing its own section of docs/benchmarks.md.
# Runs on the machine as it is; each benchmark compares its A and B alternated in one run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
load_env
status=0
bench() { # name, command...
  local name=$1; shift
  say "bench: $name"
  if ! "$@"; then say "bench $name failed"; status=1; fi
}
bench "k6 output overhead" bash packages/k6/bench/run.sh
bench "worker latency and storage" npx tsx apps/worker/bench/run.ts
bench "distributed runs" npx tsx apps/worker/bench/distributed.ts
bench "web server time" npx tsx apps/web/bench/run.ts
bench "advisor against queueing theory" npx tsx apps/worker/bench/advisor.ts
bench "CPU isolation A/B" npx tsx apps/worker/bench/isolation.ts
bench "A/A false-positive rate" npx tsx apps/worker/bench/aa-fpr.ts
bench "web pages under load" npx tsx --tsconfig apps/web/tsconfig.json apps/web/bench/pages-under-load.ts
bench "web live viewers" npx tsx --tsconfig apps/web/tsconfig.json apps/web/bench/live-viewers.ts
say "results: docs/benchmarks.md"
exit $status
