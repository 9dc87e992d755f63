import type { CompareOptions } from './compare-options';
import { qnorm } from './normal';
import { DEFAULT_FLOOR_PERCENT, type TestedRunMetricKey } from '@poolbench/contracts';

/**
 * A calibrated floor never exceeds this many times the metric's default floor (5 % → 20 %): a
 * machine noisier than that is not a reason to call every change "no change", it is a reason to
 * say the comparison cannot see it (`noiseWarning`).
 */
export const NOISE_FLOOR_CAP_FACTOR = 4;

/**
 * What an A/A calibration measured for one metric: the same config run against itself, in
 * counterbalanced pairs, compared like any two configs. `value` is the excess A/A shift: how far
 * the identical sides differed beyond what their run-to-run spread explains (0 on a machine whose
 * runs vary only at random), capped at `NOISE_FLOOR_CAP_FACTOR` times the default floor.
 */
export interface NoiseFloorMetric {
  key: TestedRunMetricKey;
  /** `percent` on the log scale (±value %); `absolute` in the metric's own unit on the linear scale */
  unit: 'percent' | 'absolute';
  value: number;
  /** the A/A change itself, in the same unit (0 would be perfect agreement) */
  estimate: number;
  /**
   * run-to-run spread: coefficient of variation in percent (`percent`), standard deviation in the
   * metric's unit (`absolute`); absent from floors measured before it was recorded
   */
  spread?: number;
  /** runs per side the floor was measured with */
  n: number;
}

/** The calibrated floors a comparison uses, by metric; a metric without one keeps its default. */
export type NoiseFloors = Partial<
  Record<TestedRunMetricKey, Pick<NoiseFloorMetric, 'unit' | 'value' | 'spread'>>
>;

/** The change a `pass` must be able to rule out: a doubling (or halving) of a primary metric. */
export const DETECTABLE_RATIO = 2;

/**
 * "p99 noise on this machine is ±48 % between runs (A/A calibration): at 5 vs 5 runs a change
 * under 3.2× can read as no change; use longer runs or more repeats", or null: the warning shown
 * beside a verdict when the calibrated run-to-run spread is so large that a comparison with these
 * run counts would miss a `DETECTABLE_RATIO` change in more than 5 % of checks. The smallest
 * change seen 95 % of the time is (z(1 − α / k) + z(0.95))·σ·√((1/m + 1/n)·π/3) on the log scale,
 * with k the primary metrics Holm divides α among. Only percent spreads (log-scale metrics) warn.
 */
export function noiseWarning(
  label: string,
  floor: Pick<NoiseFloorMetric, 'unit' | 'spread'> | undefined,
  runs: { baseline: number; candidate: number },
  opts: { alpha?: number; primaryMetrics?: number } = {},
): string | null {
  if (!floor || floor.unit !== 'percent' || !(floor.spread! > 0)) return null;
  const { baseline: m, candidate: n } = runs;
  if (m < 2 || n < 2) return null;
  const cv = floor.spread! / 100;
  const sigma = Math.sqrt(Math.log1p(cv * cv));
  const alpha = opts.alpha ?? 0.05;
  const k = opts.primaryMetrics ?? 4;
  const z = qnorm(1 - alpha / k) + qnorm(0.95);
  const detectable = z * sigma * Math.sqrt((1 / m + 1 / n) * (Math.PI / 3));
  if (!(detectable > Math.log(DETECTABLE_RATIO))) return null;
  const ratio = Math.exp(detectable);
  return `${label} noise on this machine is ±${Math.round(floor.spread!)} % between runs (A/A calibration): at ${m} vs ${n} runs a change under ${ratio.toFixed(1)}× can read as no change; use longer runs or more repeats`;
}

/**
 * A metric's options with a calibrated floor: the larger of the metric's own floor and the
 * measured one (at most `NOISE_FLOOR_CAP_FACTOR` times its own, whenever it was measured), in the
 * unit it was measured in. A floor measured on a scale the metric is not
 * compared on (percent for a linear metric) leaves the options as they are.
 */
export function withNoiseFloor(
  options: CompareOptions,
  floor: Pick<NoiseFloorMetric, 'unit' | 'value'> | undefined,
): { options: CompareOptions; raised: boolean } {
  if (!floor || !(floor.value >= 0) || !Number.isFinite(floor.value))
    return { options, raised: false };
  const linear = options.scale === 'linear';
  if (floor.unit === 'percent' && !linear) {
    const own = options.floorPercent ?? DEFAULT_FLOOR_PERCENT;
    const value = Math.min(floor.value, NOISE_FLOOR_CAP_FACTOR * own);
    return value > own
      ? { options: { ...options, floorPercent: value }, raised: true }
      : { options, raised: false };
  }
  if (floor.unit === 'absolute' && linear && options.absoluteFloor !== undefined) {
    const value = Math.min(floor.value, NOISE_FLOOR_CAP_FACTOR * options.absoluteFloor);
    return value > options.absoluteFloor
      ? { options: { ...options, absoluteFloor: value }, raised: true }
      : { options, raised: false };
  }
  return { options, raised: false };
}
