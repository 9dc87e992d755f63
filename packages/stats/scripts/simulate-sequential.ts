// Seeded simulation of the sequential rule (decideSequential) against the fixed design (one look at
// N pairs) and against naive re-testing after every pair: the tables in docs/metrics.md
// ("Sequential decisions"). Run: npx tsx packages/stats/scripts/simulate-sequential.ts [sequences]
import { wilsonInterval } from '../src/proportion';
import { seededRandom } from '../src/seeded-random';
import {
  type DrawExperiment,
  errorRateExperiment,
  lognormalExperiment,
  simulateSequential,
  threeMetricExperiment,
} from '../src/sequential-simulation';

const sequences = Number(process.argv[2] ?? 10_000);
const design = { maxPairs: 15, alpha: 0.05 };
const pct = (k: number) => `${((100 * k) / sequences).toFixed(2)} %`;
const ci = (k: number) => {
  const w = wilsonInterval(k, sequences, 0.95);
  return `${pct(k)} (${(100 * w.lower).toFixed(2)}–${(100 * w.upper).toFixed(2)} %)`;
};
const started = performance.now();

const nullCases: [string, DrawExperiment][] = [
  ['log-normal p99, CV 10 %, floor 0', lognormalExperiment(0.1, 1, { floorPercent: 0 })],
  ['log-normal p99, CV 50 %, floor 0', lognormalExperiment(0.5, 1, { floorPercent: 0 })],
  ['p99 rounded to whole ms (ties), floor 0', lognormalExperiment(0.1, 1, { floorPercent: 0 }, 1)],
  ['error rate, mostly 0 (ties), floor 0', errorRateExperiment(1, 0)],
  ['p99 + throughput + error rate, floor 0', threeMetricExperiment(0)],
  ['log-normal p99, CV 10 %, default 5 % floor', lognormalExperiment(0.1, 1, { floorPercent: 5 })],
];
console.log(
  `A/A: ${sequences} sequences each, up to ${design.maxPairs} pairs, alpha ${design.alpha}; any better/worse (95 % Wilson interval)\n`,
);
console.log(
  '| A/A case | sequential, look after every pair | fixed design, one look at 15 | naive: fixed test after every pair | sequential: mean pairs |',
);
console.log('|---|---|---|---|---|');
nullCases.forEach(([name, draw], i) => {
  const r = simulateSequential(draw, design, sequences, seededRandom(1000 + i));
  console.log(
    `| ${name} | ${ci(r.anyBetterOrWorse.sequential)} | ${pct(r.anyBetterOrWorse.fixed)} | ${pct(r.anyBetterOrWorse.naive)} | ${r.meanPairs.toFixed(1)} |`,
  );
});

console.log(
  `\nSlowdowns: log-normal p99, default 5 % floor, ${sequences} sequences each; power = share called worse\n`,
);
console.log(
  '| true change | CV | sequential power | sequential: mean pairs per side | fixed design power (15 pairs) |',
);
console.log('|---|---|---|---|---|');
let seed = 2000;
for (const ratio of [1.1, 1.2, 1.4]) {
  for (const cv of [0.05, 0.1, 0.2]) {
    const r = simulateSequential(
      lognormalExperiment(cv, ratio, { floorPercent: 5 }),
      design,
      sequences,
      seededRandom(seed++),
      {},
      false,
    );
    console.log(
      `| +${Math.round(100 * (ratio - 1))} % | ${Math.round(100 * cv)} % | ${ci(r.firstWorse.sequential)} | ${r.meanPairs.toFixed(1)} | ${ci(r.firstWorse.fixed)} |`,
    );
  }
}
console.log(
  `\nA directional claim ("the candidate is lower by more than the 5 % floor"), log-normal p99, CV 10 %, ${sequences} sequences each: how often the rule refutes it (short-of-claim), and the pairs it runs with and without the claim\n`,
);
console.log(
  '| true change | refuted (short of the claim) | called better | mean pairs, with the claim | mean pairs, without |',
);
console.log('|---|---|---|---|---|');
for (const [label, ratio] of [
  ['−20 % (the claim is true)', 0.8],
  ['−4.8 % (at the floor: the least favourable truth)', 1 / 1.05],
  ['0 (A/A)', 1],
  ['+5 %', 1.05],
] as const) {
  const s = seed++;
  const run = (claim?: 'decrease') =>
    simulateSequential(
      lognormalExperiment(0.1, ratio, { floorPercent: 5 }, undefined, claim),
      design,
      sequences,
      seededRandom(s),
      {},
      false,
    );
  const withClaim = run('decrease');
  const without = run();
  const better = withClaim.anyBetterOrWorse.sequential - withClaim.firstWorse.sequential;
  console.log(
    `| ${label} | ${ci(withClaim.firstShortOfClaim)} | ${pct(better)} | ${withClaim.meanPairs.toFixed(1)} | ${without.meanPairs.toFixed(1)} |`,
  );
}
console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);
