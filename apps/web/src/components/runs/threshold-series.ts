import { canonicalSubMetric } from '@poolbench/scenarios';

/**
 * The stored tagged series a threshold names, by their stored names, in the summary's order. A
 * threshold may spell its tags with spaces or in another order than the series' name
 * (`http_req_duration{ status: 200, name: me }`): both sides are compared in their canonical
 * spelling.
 */
export function thresholdSeriesOf(
  thresholdResults: ReadonlyArray<{ metric: string }>,
  subMetrics: ReadonlyArray<{ name: string }>,
): string[] {
  const canonical = (n: string) => canonicalSubMetric(n) ?? n;
  const named = new Set(thresholdResults.map((t) => canonical(t.metric)));
  return subMetrics.map((s) => s.name).filter((n) => named.has(canonical(n)));
}
