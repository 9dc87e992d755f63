import type { ThresholdContext, TrendStat } from './evaluate-thresholds';

/** The part of k6's `--summary-export` JSON that thresholds read. */
export interface K6SummaryExport {
  metrics: Record<string, Record<string, unknown>>;
}

function statKey(stat: TrendStat): string {
  return typeof stat === 'object' ? `p(${stat.p})` : stat;
}

const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/**
 * A ThresholdContext over a k6 summary export. Percentiles other than those in the script's
 * summaryTrendStats are not in the export and read as undefined.
 */
export function thresholdContextFromK6Summary(
  summary: K6SummaryExport,
  durationSec: number,
): ThresholdContext {
  const m = (name: string) => summary.metrics[name];
  return {
    trend: (metric, stat) => num(m(metric)?.[statKey(stat)]),
    rate: (metric) => {
      const x = m(metric);
      // The export has no samples count for rates: passes + fails == 0 means no samples.
      if (!x || (num(x.passes) ?? 0) + (num(x.fails) ?? 0) === 0) return undefined;
      return num(x.value);
    },
    count: (metric) => num(m(metric)?.count),
    durationSec,
  };
}
