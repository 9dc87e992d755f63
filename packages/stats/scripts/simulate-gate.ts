/**
 * The gate's decision quality at its defaults (Holm over the primary metrics, the 5 % floor, no
 * calibration) through its own functions: `npx tsx packages/stats/scripts/simulate-gate.ts`.
 * Seeded; prints a Markdown table of outcome shares for docs/outcomes.md.
 */
import { simulateGate } from '../src/gate-simulation';

const checks = 2000;
console.log(
  '| runs per side | run-level CV | p95 factor | regression | suspected | incomplete | pass |',
);
console.log('|---|---|---|---|---|---|---|');
let seed = 1;
for (const runs of [3, 5, 10])
  for (const cv of [0.1, 0.3])
    for (const p95Factor of [1, 1.2, 2]) {
      const c = simulateGate({ runs, cv, p95Factor, checks, seed: seed++ });
      const pct = (n: number) => `${((100 * n) / checks).toFixed(1)} %`;
      console.log(
        `| ${runs} | ${cv * 100} % | ${p95Factor}× | ${pct(c.regression)} | ${pct(c['suspected-regression'])} | ${pct(c.incomplete)} | ${pct(c.pass)} |`,
      );
    }
