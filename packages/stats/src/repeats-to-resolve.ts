import { compareSamples } from './compare-samples';
import type { CompareOptions } from './compare-options';
import { decideHypothesis, type HypothesisRule } from './decide-hypothesis';
import { seededRandom } from './seeded-random';
import { runMetricOptions, runMetricValues, type RunGroup, type RunMetricDef } from './run-metrics';
import { withNoiseFloor, type NoiseFloors } from './noise-floor-options';
import type { TestedRunMetricKey } from '@poolbench/contracts';

export interface RepeatsToResolveOptions {
  /** Largest count per side to try (default 50, the most an experiment may repeat). */
  maxRepeats?: number;
  /** Simulated experiments per count (default 200). */
  simulations?: number;
  /** Share of simulated experiments that must reach an answer (default 0.8). */
  power?: number;
  seed?: number;
}

// Counts tried in order: every count up to 10, then coarser steps (the estimate is rough anyway).
const STEPS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50];

/**
 * How many repeats per side would likely resolve a comparison at the spread seen so far: a
 * bootstrap power estimate. For each count n, `simulations` experiments are drawn by resampling
 * each side's observed per-run values with replacement (n per side), and each is judged by
 * `resolves`; the answer is the smallest n at which at least `power` of them resolve, or null when
 * even `maxRepeats` does not (the effect sits on the band's edge, or there is none to find). It
 * treats the observed runs as the truth, so with 3 runs per side it is a rough guide, not a promise.
 */
export function repeatsToResolve(
  base: readonly number[],
  cand: readonly number[],
  resolves: (base: number[], cand: number[]) => boolean,
  options: RepeatsToResolveOptions = {},
): number | null {
  const xs = base.filter(Number.isFinite);
  const ys = cand.filter(Number.isFinite);
  if (xs.length === 0 || ys.length === 0) return null;
  const maxN = options.maxRepeats ?? 50;
  const sims = options.simulations ?? 200;
  const power = options.power ?? 0.8;
  const random = seededRandom(options.seed ?? 20261124);
  const draw = (from: number[], n: number) =>
    Array.from({ length: n }, () => from[Math.floor(random() * from.length)]!);
  const start = Math.max(xs.length, ys.length);
  for (const n of STEPS) {
    if (n > maxN) break;
    if (n < start) continue;
    let ok = 0;
    for (let i = 0; i < sims; i++) {
      if (resolves(draw(xs, n), draw(ys, n))) ok++;
      // stop early once the answer for this n is certain either way
      if (ok >= power * sims) return n;
      if (ok + (sims - i - 1) < power * sims) break;
    }
  }
  return null;
}

/** Repeats per side that would likely turn an unresolved hypothesis into holds / does not hold. */
export function hypothesisRepeatsNeeded(
  base: readonly number[],
  cand: readonly number[],
  rule: HypothesisRule,
  options?: RepeatsToResolveOptions,
): number | null {
  return repeatsToResolve(
    base,
    cand,
    (b, c) => decideHypothesis(b, c, rule).status !== 'unresolved',
    options,
  );
}

/** Repeats per side that would likely turn an inconclusive metric comparison into a verdict. */
export function comparisonRepeatsNeeded(
  base: readonly number[],
  cand: readonly number[],
  compare: CompareOptions,
  options?: RepeatsToResolveOptions,
): number | null {
  return repeatsToResolve(
    base,
    cand,
    (b, c) => compareSamples(b, c, compare).verdict !== 'inconclusive',
    options,
  );
}

/**
 * Repeats per side that would likely give one metric of two run groups a verdict, estimated over the
 * per-run values and with the options compareRunGroups tests that metric with (its own scale and
 * floor), so the estimate is of the same test. It is the metric's test before the Benjamini–Hochberg
 * adjustment across metrics (that would need every metric resampled together), so where several
 * metrics are tested it leans optimistic.
 */
export function runMetricRepeatsNeeded(
  baseline: RunGroup,
  candidate: RunGroup,
  def: RunMetricDef,
  shared: CompareOptions = {},
  options?: RepeatsToResolveOptions,
  /** calibrated noise floors, as compareRunGroups was given them */
  noiseFloors?: NoiseFloors,
): number | null {
  return comparisonRepeatsNeeded(
    runMetricValues(baseline, def),
    runMetricValues(candidate, def),
    withNoiseFloor(runMetricOptions(def, shared), noiseFloors?.[def.key as TestedRunMetricKey])
      .options,
    options,
  );
}
