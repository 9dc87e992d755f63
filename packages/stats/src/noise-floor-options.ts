import type { CompareOptions } from './compare-options';
import { DEFAULT_FLOOR_PERCENT, type TestedRunMetricKey } from './run-metric-keys';

/**
 * What an A/A calibration measured for one metric: the same config run against itself,
 * interleaved, compared like any two configs. `value` is the largest change the comparison of
 * the identical sides could not rule out (the larger end of its interval, in absolute value):
 * identical configs, compared with `n` runs per side on this machine, can look this different.
 */
export interface NoiseFloorMetric {
  key: TestedRunMetricKey;
  /** `percent` on the log scale (±value %); `absolute` in the metric's own unit on the linear scale */
  unit: 'percent' | 'absolute';
  value: number;
  /** the A/A change itself, in the same unit (0 would be perfect agreement) */
  estimate: number;
  /** runs per side the floor was measured with */
  n: number;
}

/** The calibrated floors a comparison uses, by metric; a metric without one keeps its default. */
export type NoiseFloors = Partial<
  Record<TestedRunMetricKey, Pick<NoiseFloorMetric, 'unit' | 'value'>>
>;

/**
 * A metric's options with a calibrated floor: the larger of the metric's own floor and the
 * measured one, in the unit it was measured in. A floor measured on a scale the metric is not
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
    return floor.value > own
      ? { options: { ...options, floorPercent: floor.value }, raised: true }
      : { options, raised: false };
  }
  if (floor.unit === 'absolute' && linear && options.absoluteFloor !== undefined) {
    return floor.value > options.absoluteFloor
      ? { options: { ...options, absoluteFloor: floor.value }, raised: true }
      : { options, raised: false };
  }
  return { options, raised: false };
}
