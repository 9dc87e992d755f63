/**
 * What run order buys (docs/decision-quality.md, `make bench` section decision-quality): the
 * gate's simulation (`@poolbench/stats/simulation`, the functions schedules and CI call) fed the
 * run orders `runOrder` lays out for two configs, with an order effect (the first run of each
 * round slower: a cold cache after the pause between rounds) or a slow drift of the machine.
 * `npx tsx packages/runs/scripts/order-effects.ts`. Seeded; prints a Markdown table.
 */
import { runOrder } from '@poolbench/db';
import { simulateGate } from '@poolbench/stats/simulation';

const checks = Number(process.env.SIM_CHECKS ?? 2000);
const RUNS = 5;
const ORDERS = ['counterbalanced', 'interleaved', 'blocked'] as const;
const sequenceOf = (order: (typeof ORDERS)[number]) =>
  runOrder(2, 1, RUNS, order).map((c) => c.poolConfigIndex as 0 | 1);

const EFFECTS = [
  { label: 'first run of each pair 20 % slower', firstInRound: 0.2 },
  { label: 'latency drifts +30 % over the experiment', drift: 0.3 },
] as const;
const pct = (n: number) => `${((100 * n) / checks).toFixed(1)} %`;
console.log(
  '| order (5 vs 5, 10 % noise) | disturbance | change | regression | suspected | pass | a metric called better |',
);
console.log('|---|---|---|---|---|---|---|');
let seed = 500;
for (const effect of EFFECTS)
  for (const order of ORDERS)
    for (const [change, p95Factor] of [
      ['1× (A/A)', 1],
      ['p95 1.3×', 1.3],
    ] as const) {
      const c = simulateGate({
        runs: RUNS,
        cv: 0.1,
        p95Factor,
        sequence: sequenceOf(order),
        ...effect,
        checks,
        seed: seed++,
      });
      console.log(
        `| ${order} | ${effect.label} | ${change} | ${pct(c.regression)} | ${pct(c['suspected-regression'])} | ${pct(c.pass)} | ${pct(c.improved)} |`,
      );
    }
