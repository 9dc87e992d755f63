// How often compareSamples says `worse` for a true slowdown, by repeats per side and run-to-run
// noise: the table in README.md ("The cost of this rule is power"). Seeded, so it reproduces.
// Run: npx tsx packages/stats/scripts/power-table.ts
import { compareSamples } from '../src/compare-samples';
import { normalDraw, seededRandom } from '../src/seeded-random';

const random = seededRandom(7);
const trials = 1000;
const runs = (n: number, center: number, noise: number) =>
  Array.from({ length: n }, () => center * Math.exp(noise * normalDraw(random)));

const cases = [
  { noise: 0.03, change: 1.1 },
  { noise: 0.03, change: 1.2 },
  { noise: 0.1, change: 1.2 },
  { noise: 0.1, change: 1.5 },
];
const sizes = [3, 4, 5, 6, 8, 10, 15];
console.log(`| noise (sd of log) | true change | ${sizes.map((n) => `n=${n}`).join(' | ')} |`);
console.log(`|---|---|${sizes.map(() => '---').join('|')}|`);
for (const { noise, change } of cases) {
  const cells = sizes.map((n) => {
    let worse = 0;
    for (let t = 0; t < trials; t++) {
      if (compareSamples(runs(n, 100, noise), runs(n, 100 * change, noise)).verdict === 'worse')
        worse++;
    }
    return `${Math.round((100 * worse) / trials)} %`;
  });
  console.log(`| ${noise} | +${Math.round(100 * (change - 1))} % | ${cells.join(' | ')} |`);
}
