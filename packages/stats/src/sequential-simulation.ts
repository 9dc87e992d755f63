import type { CompareOptions } from './compare-options';
import { compareMetrics } from './compare-metrics';
import { decideSequential } from './decide-sequential';
import type { SequentialDesign, SequentialMetricSamples } from './sequential-design';
import { normalDraw } from './seeded-random';

/*
 * Simulated experiments for the sequential rule: the unit test runs a small number of them, and
 * scripts/simulate-sequential.ts the full table in docs/metrics.md. Not exported from the package.
 */

/** One simulated experiment: N pairs of every metric, drawn in run order. */
export type DrawExperiment = (random: () => number, pairs: number) => SequentialMetricSamples[];

export interface SimulationResult {
  sequences: number;
  /** Sequences with a better/worse on any metric: sequential rule, one look at N, a look at every pair. */
  anyBetterOrWorse: { sequential: number; fixed: number; naive: number };
  /** Sequences whose first metric was called worse (the direction of a simulated slowdown). */
  firstWorse: { sequential: number; fixed: number };
  /** Sequences the sequential rule ended with every metric `no-difference-within-floor`. */
  allWithinFloor: number;
  /** Sequences whose first metric the sequential rule decided `short-of-claim` (its claim refuted). */
  firstShortOfClaim: number;
  /** Mean pairs per side the sequential rule ran (stopping when every metric is decided, else N). */
  meanPairs: number;
}

const verdictCalls = (v: string) => v === 'better' || v === 'worse';

/**
 * Runs `sequences` experiments of `design.maxPairs` pairs. The sequential rule is asked once with
 * all pairs: it replays the looks and keeps the first decision, which is what asking after every
 * pair gives. The fixed design is `compareMetrics` at N; the naive one is `compareMetrics` after
 * every pair from 2 on, stopping at the first better/worse (what re-testing after "Add repeats"
 * does).
 */
export function simulateSequential(
  draw: DrawExperiment,
  design: SequentialDesign & { maxPairs: number },
  sequences: number,
  random: () => number,
  shared: CompareOptions = {},
  naive = true,
): SimulationResult {
  const out: SimulationResult = {
    sequences,
    anyBetterOrWorse: { sequential: 0, fixed: 0, naive: 0 },
    firstWorse: { sequential: 0, fixed: 0 },
    allWithinFloor: 0,
    firstShortOfClaim: 0,
    meanPairs: 0,
  };
  let pairsTotal = 0;
  const N = design.maxPairs;
  const asFixed = (metrics: SequentialMetricSamples[], n: number) =>
    compareMetrics(
      metrics.map((m) => ({
        name: m.name,
        baseline: m.baseline.slice(0, n).filter((v): v is number => v !== null),
        candidate: m.candidate.slice(0, n).filter((v): v is number => v !== null),
        options: m.options,
      })),
      { ...shared, alpha: design.alpha ?? 0.05 },
    );
  for (let s = 0; s < sequences; s++) {
    const metrics = draw(random, N);
    const seq = decideSequential(metrics, design, shared);
    if (seq.some((m) => verdictCalls(m.decision))) out.anyBetterOrWorse.sequential++;
    if (seq[0]?.decision === 'worse') out.firstWorse.sequential++;
    if (seq.every((m) => m.decision === 'no-difference-within-floor')) out.allWithinFloor++;
    if (seq[0]?.decision === 'short-of-claim') out.firstShortOfClaim++;
    const decided = seq.every((m) => m.decision !== 'undecided-budget-reached');
    pairsTotal += decided ? Math.max(...seq.map((m) => m.look?.pairs ?? N)) : N;
    const fixed = asFixed(metrics, N);
    if (fixed.some((m) => verdictCalls(m.verdict))) out.anyBetterOrWorse.fixed++;
    if (fixed[0]?.verdict === 'worse') out.firstWorse.fixed++;
    if (naive) {
      for (let n = 2; n <= N; n++) {
        if (asFixed(metrics, n).some((m) => verdictCalls(m.verdict))) {
          out.anyBetterOrWorse.naive++;
          break;
        }
      }
    }
  }
  out.meanPairs = pairsTotal / sequences;
  return out;
}

/** Log-normal run values with median `median` and coefficient of variation `cv`. */
export function lognormalRuns(
  random: () => number,
  n: number,
  median: number,
  cv: number,
  round?: number,
): number[] {
  const sdlog = Math.sqrt(Math.log1p(cv * cv));
  return Array.from({ length: n }, () => {
    const v = median * Math.exp(sdlog * normalDraw(random));
    return round === undefined ? v : Math.round(v / round) * round;
  });
}

/** Poisson draw by inversion (small means only). */
export function poissonDraw(random: () => number, mean: number): number {
  const u = random();
  let k = 0;
  let p = Math.exp(-mean);
  let cdf = p;
  while (u > cdf && k < 1000) {
    k++;
    p *= mean / k;
    cdf += p;
  }
  return k;
}

/**
 * A/A or shifted experiments of one log-normal metric (p99-like, lower is better); with `claim`,
 * the metric carries a directional claim the rule also tries to refute.
 */
export function lognormalExperiment(
  cv: number,
  ratio: number,
  options: CompareOptions,
  round?: number,
  claim?: SequentialMetricSamples['claim'],
): DrawExperiment {
  return (random, pairs) => {
    const baseline: number[] = [];
    const candidate: number[] = [];
    // Interleaved: baseline run i, then candidate run i.
    for (let i = 0; i < pairs; i++) {
      baseline.push(lognormalRuns(random, 1, 20, cv, round)[0]!);
      candidate.push(lognormalRuns(random, 1, 20 * ratio, cv, round)[0]!);
    }
    return [{ name: 'p99Ms', baseline, candidate, options, ...(claim ? { claim } : {}) }];
  };
}

/** Error rate in percent of 2000 requests with mean `meanErrors` failures per run: mostly 0, 1, 2. */
export function errorRateExperiment(meanErrors: number, floor: number): DrawExperiment {
  const rate = (random: () => number) => (100 * poissonDraw(random, meanErrors)) / 2000;
  return (random, pairs) => {
    const baseline: number[] = [];
    const candidate: number[] = [];
    for (let i = 0; i < pairs; i++) {
      baseline.push(rate(random));
      candidate.push(rate(random));
    }
    return [
      {
        name: 'errorRate',
        baseline,
        candidate,
        options: { scale: 'linear', absoluteFloor: floor },
      },
    ];
  };
}

/**
 * Three metrics of the same runs, A/A: p99 and throughput share a per-run "noisy neighbour" factor
 * (correlated, as on a real machine), and an error rate with ties.
 */
export function threeMetricExperiment(floorPercent: number): DrawExperiment {
  return (random, pairs) => {
    const side = () => {
      const p99: number[] = [];
      const rps: number[] = [];
      const err: number[] = [];
      return { p99, rps, err };
    };
    const a = side();
    const b = side();
    for (let i = 0; i < pairs; i++) {
      for (const s of [a, b]) {
        const noise = 0.1 * normalDraw(random);
        s.p99.push(20 * Math.exp(noise + 0.05 * normalDraw(random)));
        s.rps.push(1000 * Math.exp(-0.7 * noise + 0.03 * normalDraw(random)));
        s.err.push((100 * poissonDraw(random, 1)) / 2000);
      }
    }
    return [
      { name: 'p99Ms', baseline: a.p99, candidate: b.p99, options: { floorPercent } },
      {
        name: 'rps',
        baseline: a.rps,
        candidate: b.rps,
        options: { floorPercent, direction: 'higher-is-better' },
      },
      {
        name: 'errorRate',
        baseline: a.err,
        candidate: b.err,
        options: { scale: 'linear', absoluteFloor: 0 },
      },
    ];
  };
}
