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
# The verdict rules through their own functions on simulated runs (seeded: the same numbers on any
# machine), and the change-point search against Apache Otava when tests set it up (.data/otava).
decision_quality() {
  {
    printf '## Decision quality (simulated)\n\n`make bench`: `npx tsx packages/stats/scripts/simulate-gate.ts`, `npx tsx packages/runs/scripts/order-effects.ts`, `npx tsx packages/stats/scripts/change-point-quality.ts`, %s, %s CPUs. Seeded simulations through the product'"'"'s own functions; what each table means: docs/decision-quality.md and docs/change-points.md.\n\n### The gate at its defaults\n\n' "$(date -u +%F)" "$(nproc)"
    npx tsx packages/stats/scripts/simulate-gate.ts
    printf '\n### Run order against an order effect and a drift\n\n'
    npx tsx packages/runs/scripts/order-effects.ts
    printf '\n### Change points: labelled series and stationary histories\n\n'
    npx tsx packages/stats/scripts/change-point-quality.ts
  } | node scripts/bench-section.mjs decision-quality
}
bench "decision quality" decision_quality
bench "change points on the real product" npx tsx --tsconfig apps/web/tsconfig.json apps/web/bench/change-points.ts
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
