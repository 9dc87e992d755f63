import { benjaminiHochberg } from './benjamini-hochberg';
import { type CompareOptions } from './compare-options';
import { type SampleComparison, applyVerdict, compareSamples } from './compare-samples';

export interface MetricSamples {
  /** Metric key, e.g. `p99Ms` or `throughputRps`. */
  name: string;
  /** One value per baseline run. */
  baseline: readonly number[];
  /** One value per candidate run. */
  candidate: readonly number[];
  /** Per-metric options (direction, scale, floor …) over the shared ones. */
  options?: CompareOptions;
}

export interface MetricComparison extends SampleComparison {
  name: string;
  /** The Mann–Whitney p-value before adjustment. */
  rawPValue: number | null;
}

/**
 * Compares several metrics of the same two configurations. The p-values are adjusted together with
 * Benjamini–Hochberg at q = the shared alpha, and each verdict is decided with its adjusted p, so
 * looking at ten metrics does not make a spurious "worse" ten times as likely. The intervals are
 * per-metric (unadjusted) intervals.
 */
export function compareMetrics(
  metrics: readonly MetricSamples[],
  shared: CompareOptions = {},
): MetricComparison[] {
  const results = metrics.map((metric) => {
    const c = compareSamples(metric.baseline, metric.candidate, { ...shared, ...metric.options });
    return { ...c, name: metric.name, rawPValue: c.pValue };
  });
  const { adjusted } = benjaminiHochberg(results.map((r) => r.rawPValue));
  results.forEach((r, i) => applyVerdict(r, adjusted[i] ?? null));
  return results;
}
