/**
 * Precision and recall of the change-point search on the labelled series, and its false alarms
 * on stationary series, at the defaults; with Apache Otava's answers beside them when its
 * virtual environment exists (scripts/setup.sh --for-tests):
 * `npx tsx packages/stats/scripts/change-point-quality.ts`. Seeded; prints Markdown for
 * docs/change-points.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changePoints } from '../src/change-points';
import { normalDraw, seededRandom } from '../src/seeded-random';
import { changePointSeries } from '../src/testing/change-point-series';

const HERE = dirname(fileURLToPath(import.meta.url));
const PYTHON = join(HERE, '..', '..', '..', '.data', 'otava', 'bin', 'python');
const otava = (series: number[][]): number[][] | null =>
  existsSync(PYTHON)
    ? (
        JSON.parse(
          execFileSync(PYTHON, [join(HERE, '..', 'reference', 'otava_change_points.py')], {
            input: JSON.stringify(series),
            maxBuffer: 64 << 20,
          }).toString(),
        ) as Array<Array<{ index: number }>>
      ).map((cps) => cps.map((c) => c.index))
    : null;

const labelled = changePointSeries();
const steps = labelled.filter((s) => !s.name.includes('drift'));
const drifts = labelled.filter((s) => s.name.includes('drift'));

function score(found: number[][], truth: number[][]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  found.forEach((f, i) => {
    const t = truth[i]!;
    const hit = (x: number) => t.some((y) => Math.abs(x - y) <= 1);
    tp += f.filter(hit).length;
    fp += f.filter((x) => !hit(x)).length;
    fn += t.filter((y) => !f.some((x) => Math.abs(x - y) <= 1)).length;
  });
  return { tp, fp, fn, precision: tp / (tp + fp), recall: tp / (tp + fn) };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const ours = steps.map((s) => changePoints(s.values).map((c) => c.index));
const theirs = otava(steps.map((s) => s.values));
const truth = steps.map((s) => s.truth);
const a = score(ours, truth);
console.log('| tool | true changes found | false change points | missed | precision | recall |');
console.log('|---|---|---|---|---|---|');
console.log(`| PoolBench | ${a.tp} | ${a.fp} | ${a.fn} | ${pct(a.precision)} | ${pct(a.recall)} |`);
if (theirs) {
  const b = score(theirs, truth);
  console.log(
    `| Otava 0.8.0 | ${b.tp} | ${b.fp} | ${b.fn} | ${pct(b.precision)} | ${pct(b.recall)} |`,
  );
}
console.log();
console.log(
  `Slow drifts (${drifts.length} series, no single true index): PoolBench marks ${drifts.filter((s) => changePoints(s.values).length > 0).length} of ${drifts.length}.`,
);

// stationary log-normal series of several lengths and noise levels
console.log();
console.log(
  '| stationary series | noise (CV) | series | with any change point (PoolBench) | Otava |',
);
console.log('|---|---|---|---|---|');
for (const length of [20, 40, 100])
  for (const cv of [0.05, 0.3]) {
    const sigma = Math.sqrt(Math.log(1 + cv * cv));
    const n = 300;
    const series = Array.from({ length: n }, (_, k) => {
      const random = seededRandom(length * 1000 + Math.round(cv * 100) * 7 + k);
      return Array.from({ length }, () => 100 * Math.exp(sigma * normalDraw(random)));
    });
    const mine = series.filter((v) => changePoints(v).length > 0).length;
    const ref = otava(series);
    const refAlarms = ref ? ref.filter((cps) => cps.length > 0).length : null;
    console.log(
      `| ${length} values | ${cv * 100} % | ${n} | ${pct(mine / n)} | ${refAlarms === null ? '—' : pct(refAlarms / n)} |`,
    );
  }
