import type { NoiseFloorMetric } from './noise-floor-options';
import { compareRunGroups, type RunGroup } from './run-metrics';
import type { TestedRunMetricKey } from './run-metric-keys';

/** Largest |x| of an interval. */
const reach = (lower: number, upper: number) => Math.max(Math.abs(lower), Math.abs(upper));

/**
 * The noise floor of every tested metric from the two sides of an A/A calibration (the same
 * config, runs interleaved A B A B …): the comparison the compare view would make of them, and
 * per metric the reach of its interval (on the log scale as a percent, 100·(e^d − 1) of the
 * larger |bound| d; on the linear scale in the metric's unit). A metric that has no interval
 * (too few runs with a value) has no floor.
 */
export function measureNoiseFloor(a: RunGroup, b: RunGroup): NoiseFloorMetric[] {
  const cmp = compareRunGroups(a, b);
  return cmp.metrics.flatMap((m): NoiseFloorMetric[] => {
    if (!m.shift || m.insufficient) return [];
    const n = Math.min(m.baseline.n, m.candidate.n);
    const key = m.def.key as TestedRunMetricKey;
    if (m.scale === 'log')
      return [
        {
          key,
          unit: 'percent' as const,
          value: 100 * Math.expm1(reach(m.shift.lower, m.shift.upper)),
          estimate: 100 * Math.expm1(m.shift.estimate),
          n,
        },
      ];
    return [
      {
        key,
        unit: 'absolute' as const,
        value: reach(m.shift.lower, m.shift.upper),
        estimate: m.shift.estimate,
        n,
      },
    ];
  });
}
