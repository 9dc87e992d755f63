import { qnorm } from './normal';
import { NOISE_FLOOR_CAP_FACTOR, type NoiseFloorMetric } from './noise-floor-options';
import { compareRunGroups, runMetricValues, type RunGroup } from './run-metrics';
import { DEFAULT_FLOOR_PERCENT, type TestedRunMetricKey } from '@poolbench/contracts';

/**
 * Hodges–Lehmann's variance relative to the difference of means for normal data (its asymptotic
 * relative efficiency is 3/π): the sampling spread of the shift the test already accounts for.
 */
const HL_VARIANCE_FACTOR = Math.PI / 3;

/** Pooled standard deviation of two samples (each needs 2 values). */
function pooledSd(x: readonly number[], y: readonly number[]): number {
  const ss = (v: readonly number[]) => {
    const mean = v.reduce((s, a) => s + a, 0) / v.length;
    return v.reduce((s, a) => s + (a - mean) ** 2, 0);
  };
  return Math.sqrt((ss(x) + ss(y)) / (x.length + y.length - 2));
}

/**
 * The noise floor of every tested metric from the two sides of an A/A calibration (the same
 * config, runs in pairs whose sides take turns to go first, A B, B A, …): the **excess** A/A
 * shift, the part of the Hodges–Lehmann change between the identical sides that their run-to-run
 * spread does not explain, max(0, |d| − 1.96·se) with se = s·√(1/nA + 1/nB)·√(π/3) from the
 * pooled within-side spread s.
 * Sampling scatter is what the comparison's own test accounts for; counting it again in the floor
 * (the reach of the A/A interval) made runs varying by 10 % and nothing else read as a ±16 % floor.
 * The value is capped at `NOISE_FLOOR_CAP_FACTOR` times the metric's default floor. `spread` is
 * the run-to-run spread itself (coefficient of variation in percent on the log scale, a standard
 * deviation in the metric's unit on the linear one): what `noiseWarning` reads to say when a
 * comparison cannot see a doubling. A metric without a test (too few runs) has no floor.
 */
export function measureNoiseFloor(a: RunGroup, b: RunGroup): NoiseFloorMetric[] {
  const cmp = compareRunGroups(a, b);
  const z = qnorm(0.975);
  return cmp.metrics.flatMap((m): NoiseFloorMetric[] => {
    if (!m.shift || m.test === null) return [];
    const log = m.scale === 'log';
    const t = (v: number) => (log ? Math.log(v) : v);
    const x = runMetricValues(a, m.def).map(t);
    const y = runMetricValues(b, m.def).map(t);
    if (x.length < 2 || y.length < 2) return [];
    const s = pooledSd(x, y);
    const se = s * Math.sqrt((1 / x.length + 1 / y.length) * HL_VARIANCE_FACTOR);
    const excess = Math.max(0, Math.abs(m.shift.estimate) - z * se);
    const key = m.def.key as TestedRunMetricKey;
    const n = Math.min(x.length, y.length);
    if (log)
      return [
        {
          key,
          unit: 'percent' as const,
          value: Math.min(100 * Math.expm1(excess), NOISE_FLOOR_CAP_FACTOR * DEFAULT_FLOOR_PERCENT),
          estimate: 100 * Math.expm1(m.shift.estimate),
          spread: 100 * Math.sqrt(Math.expm1(s * s)),
          n,
        },
      ];
    const own = m.floor.absolute ?? 0;
    return [
      {
        key,
        unit: 'absolute' as const,
        value: own > 0 ? Math.min(excess, NOISE_FLOOR_CAP_FACTOR * own) : excess,
        estimate: m.shift.estimate,
        spread: s,
        n,
      },
    ];
  });
}
