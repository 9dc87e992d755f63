/**
 * The gate's decision quality at its defaults (Holm over the primary metrics, suspicion at the
 * same alpha, the 5 % floor, no calibration) through its own functions:
 * `npx tsx packages/stats/scripts/simulate-gate.ts`. Seeded; prints a Markdown table of outcome
 * shares for docs/outcomes.md and docs/decision-quality.md.
 */
import { simulateGate, type GateSimulation } from '../src/gate-simulation';

const checks = 2000;
type Row = Omit<GateSimulation, 'checks' | 'seed'> & { label: string };
const rows: Row[] = [];
for (const cv of [0.1, 0.3, 0.5]) rows.push({ label: '1× (A/A)', runs: 5, cv, p95Factor: 1 });
for (const cv of [0.1, 0.3, 0.5]) rows.push({ label: 'p95 2×', runs: 5, cv, p95Factor: 2 });
for (const cv of [0.1, 0.3, 0.5])
  rows.push({ label: 'p99 2×', runs: 5, cv, p95Factor: 1, p99Factor: 2 });
rows.push({ label: 'p95 1.2×', runs: 5, cv: 0.1, p95Factor: 1.2 });
rows.push({ label: '1× (A/A)', runs: 3, cv: 0.1, p95Factor: 1 });
rows.push({ label: 'p95 2×', runs: 3, cv: 0.1, p95Factor: 2 });
rows.push({ label: '1× (A/A)', runs: 10, cv: 0.1, p95Factor: 1 });
rows.push({ label: '1× (A/A)', runs: 10, cv: 0.5, p95Factor: 1 });
rows.push({ label: 'p95 2×', runs: 10, cv: 0.3, p95Factor: 2 });
rows.push({ label: 'p95 2×', runs: 10, cv: 0.5, p95Factor: 2 });
rows.push({ label: 'p99 2×', runs: 10, cv: 0.5, p95Factor: 1, p99Factor: 2 });
for (const p95Factor of [1, 2])
  rows.push({
    label: p95Factor === 1 ? '1× (A/A)' : 'p95 2×',
    runs: 5,
    cv: 0.1,
    p95Factor,
    candidateRuns: 3,
    crashedRuns: 1,
  });

const pct = (n: number) => `${((100 * n) / checks).toFixed(1)} %`;
console.log(
  '| runs (baseline vs candidate) | run-level CV | change | regression | suspected | incomplete | pass |',
);
console.log('|---|---|---|---|---|---|---|');
rows.forEach(({ label, ...row }, i) => {
  const c = simulateGate({ ...row, checks, seed: i + 1 });
  const cand = row.candidateRuns ?? row.runs;
  const runs = row.crashedRuns
    ? `${row.runs} vs ${cand}, ${row.crashedRuns} of ${cand} crashed`
    : `${row.runs} vs ${cand}`;
  console.log(
    `| ${runs} | ${row.cv * 100} % | ${label} | ${pct(c.regression)} | ${pct(c['suspected-regression'])} | ${pct(c.incomplete)} | ${pct(c.pass)} |`,
  );
});
