import { benjaminiHochberg } from './benjamini-hochberg';
import { holm } from './holm';
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
  /** A primary metric: adjusted with Holm among the primaries only (see `compareMetrics`). */
  primary?: boolean;
}

export interface MetricComparison extends SampleComparison {
  name: string;
  /** The Mann–Whitney p-value before adjustment. */
  rawPValue: number | null;
  /** Adjusted with Holm among the primary metrics (true) or with Benjamini–Hochberg among the rest. */
  primary: boolean;
  /**
   * The evidence that this metric got worse: its one-sided Mann–Whitney p in the worse direction
   * (half the two-sided p when the estimate lies on the worse side, else 1), Holm-adjusted among
   * the primary metrics; null for a secondary metric or one without a test. A primary metric is
   * suspected (`isSuspectedWorse`) only when this is below alpha, so the chance that an A/A check
   * has any suspicion or regression is at most alpha (Holm's family-wise bound).
   */
  suspicionPValue: number | null;
}

/**
 * Compares several metrics of the same two configurations, each verdict decided with its adjusted
 * p, so looking at ten metrics does not make a spurious "worse" ten times as likely. The metrics
 * marked `primary` form one family adjusted with Holm (family-wise error rate at the shared alpha);
 * the others form a second family adjusted with Benjamini–Hochberg at q = alpha, so they neither
 * dilute the primaries' power nor borrow from it. Without any primary metric, all are one
 * Benjamini–Hochberg family. The intervals are per-metric (unadjusted) intervals.
 */
export function compareMetrics(
  metrics: readonly MetricSamples[],
  shared: CompareOptions = {},
): MetricComparison[] {
  const results = metrics.map((metric) => {
    const c = compareSamples(metric.baseline, metric.candidate, { ...shared, ...metric.options });
    return {
      ...c,
      name: metric.name,
      rawPValue: c.pValue,
      primary: metric.primary === true,
      suspicionPValue: null as number | null,
    };
  });
  const raw = (primary: boolean) =>
    results.map((r) => (r.primary === primary ? r.rawPValue : null));
  const primaries = holm(raw(true));
  const { adjusted: rest } = benjaminiHochberg(raw(false));
  const suspicion = holm(results.map((r) => (r.primary ? worsePValue(r) : null)));
  results.forEach((r, i) => {
    applyVerdict(r, (r.primary ? primaries[i] : rest[i]) ?? null);
    r.suspicionPValue = suspicion[i] ?? null;
  });
  return results;
}

/**
 * One-sided p that the candidate is worse: half the two-sided Mann–Whitney p when the
 * Hodges–Lehmann estimate lies on the worse side (the exact test's tail; the normal approximation's
 * one-sided tail with ties), else 1. Null without a test.
 */
export function worsePValue(c: SampleComparison): number | null {
  if (c.test === null || c.shift === null) return null;
  const worseSide = c.direction === 'lower-is-better' ? c.shift.estimate > 0 : c.shift.estimate < 0;
  return worseSide ? c.test.pValue / 2 : 1;
}
