/**
 * The gate's decision quality at its defaults (Holm over the primary metrics, suspicion at the
 * same alpha, the 5 % floor; without and with an A/A calibration at the same noise) through its
 * own functions:
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
for (const p95Factor of [1, 2])
  rows.push({
    label: p95Factor === 1 ? '1× (A/A)' : 'p95 2×',
    runs: 5,
    cv: 0.1,
    p95Factor,
    outlierRuns: 1,
  });
for (const cv of [0.1, 0.3, 0.5])
  for (const [label, f] of [
    ['1× (A/A)', { p95Factor: 1 }],
    ['p95 2×', { p95Factor: 2 }],
    ['p99 2×', { p95Factor: 1, p99Factor: 2 }],
  ] as const)
    rows.push({ label, runs: 5, cv, ...f, calibrationRunsPerSide: 8 });

// last, so the rows above keep their seeds: runs that fall behind their load (k6 dropped 5 % of the iterations): at random on both sides,
// then a candidate that falls behind far more often than its baseline
for (const [baseline, candidate] of [
  [0.1, 0.1],
  [0.32, 0.32],
  [0.5, 0.5],
  [0, 0.5],
  [0.05, 0.8],
  [0.1, 1],
] as const)
  rows.push({
    label: baseline === candidate ? '1× (A/A)' : '1×, the candidate falls behind',
    runs: 5,
    cv: 0.1,
    p95Factor: 1,
    notOffered: { baseline, candidate },
  });

const pct = (n: number) => `${((100 * n) / checks).toFixed(1)} %`;
console.log(
  '| runs (baseline vs candidate) | run-level CV | change | regression | of which load not taken | suspected | incomplete | pass |',
);
console.log('|---|---|---|---|---|---|---|---|');
rows.forEach(({ label, ...row }, i) => {
  const c = simulateGate({ ...row, checks, seed: i + 1 });
  const cand = row.candidateRuns ?? row.runs;
  const runs = row.crashedRuns
    ? `${row.runs} vs ${cand}, ${row.crashedRuns} of ${cand} crashed`
    : row.outlierRuns
      ? `${row.runs} vs ${cand}, ${row.outlierRuns} of ${cand} an outlier (latency 3×)`
      : row.notOffered
        ? `${row.runs} vs ${cand}, a run falls behind its load with chance ${row.notOffered.baseline} vs ${row.notOffered.candidate}`
        : row.calibrationRunsPerSide
          ? `${row.runs} vs ${cand}, calibrated (${row.calibrationRunsPerSide} vs ${row.calibrationRunsPerSide} A/A)`
          : `${row.runs} vs ${cand}`;
  console.log(
    `| ${runs} | ${row.cv * 100} % | ${label} | ${pct(c.regression)} | ${pct(c.loadNotTaken)} | ${pct(c['suspected-regression'])} | ${pct(c.incomplete)} | ${pct(c.pass)} |`,
  );
});
