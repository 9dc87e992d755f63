import { createHistogram, decodeHistogram, encodeHistogram, histogramStatsMs } from './hdr';
import type { CustomMetrics, CustomMetricValue } from '@poolbench/contracts';

export type { CustomMetrics, CustomMetricValue };

/** Adds seconds' custom metrics up: sums add, histograms merge exactly, a gauge keeps its last. */
export function sumCustomMetrics(
  seconds: Iterable<CustomMetrics | null | undefined>,
): CustomMetrics | null {
  const out: CustomMetrics = {};
  const hists = new Map<string, ReturnType<typeof createHistogram>>();
  let any = false;
  for (const s of seconds) {
    if (!s) continue;
    for (const [name, v] of Object.entries(s)) {
      any = true;
      const into = (out[name] ??= { type: v.type, count: 0 });
      into.type = v.type;
      into.count += v.count;
      if (v.time !== undefined) into.time = v.time;
      if (v.negative) into.negative = (into.negative ?? 0) + v.negative;
      if (v.aboveTop) into.aboveTop = (into.aboveTop ?? 0) + v.aboveTop;
      if (v.sum !== undefined) into.sum = (into.sum ?? 0) + v.sum;
      if (v.nonZero !== undefined) into.nonZero = (into.nonZero ?? 0) + v.nonZero;
      if (v.value !== undefined) into.value = v.value;
      if (v.max !== undefined) into.max = Math.max(into.max ?? -Infinity, v.max);
      if (v.histogram) {
        let h = hists.get(name);
        if (!h) hists.set(name, (h = createHistogram()));
        h.add(decodeHistogram(v.histogram));
      }
    }
  }
  if (!any) return null;
  for (const [name, v] of Object.entries(out)) {
    if (v.type === 'rate') v.rate = v.count > 0 ? (v.nonZero ?? 0) / v.count : null;
    const h = hists.get(name);
    if (h) {
      v.trend = histogramStatsMs(h);
      v.histogram = encodeHistogram(h);
    }
  }
  return out;
}

/** A custom metric as a line of the k6 output holds it, decoded (statistics in ms). */
export function customMetricFromLine(l: {
  type: CustomMetricValue['type'];
  count: number;
  time?: boolean;
  negative?: number;
  aboveTop?: number;
  hist?: string;
  sum?: number;
  nonZero?: number;
  value?: number;
  max?: number;
}): CustomMetricValue {
  const { hist, ...v } = l;
  return {
    ...v,
    ...(hist ? { trend: histogramStatsMs(decodeHistogram(hist)), histogram: hist } : {}),
    ...(v.type === 'rate' ? { rate: v.count > 0 ? (v.nonZero ?? 0) / v.count : null } : {}),
  };
}

/** Without the histograms: what a run summary and a stored second keep besides them. */
export function withoutHistograms(c: CustomMetrics): CustomMetrics {
  return Object.fromEntries(Object.entries(c).map(([name, { histogram: _h, ...v }]) => [name, v]));
}

/**
 * Whether a metric holds times in ms (a trend of times) rather than plain numbers. Decided here
 * for every reader: a trend stored before the output said which (no `time`) is read as times, as
 * it always was; a trend that says `time: false` is a plain number, and so is every counter, rate
 * and gauge.
 */
export function isTimeTrend(v: {
  type: CustomMetricValue['type'] | 'none';
  time?: boolean | undefined;
}): boolean {
  return v.type === 'trend' && v.time !== false;
}
