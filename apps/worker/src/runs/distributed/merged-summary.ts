import {
  CustomMetricsSchema,
  readJson,
  RUN_SECOND_HIST_COLUMNS,
  SecondChecksSchema,
  StatusCountsSchema,
  type Prisma,
} from '@poolbench/db';
import {
  SummaryAccumulator,
  type K6SubMetric,
  type K6Summary,
  type SecondLine,
  type TrendMetric,
} from '@poolbench/k6';
import { canonicalSubMetric, parseSubMetric } from '@poolbench/scenarios';
import { sumCustomMetrics } from '@poolbench/stats';

// k6's trend metrics are exactly RunSecond's histogram columns
const COLUMN_OF = RUN_SECOND_HIST_COLUMNS satisfies Record<TrendMetric, string>;

/**
 * The run's k6 summary from its merged seconds, through the very accumulator a single k6 feeds,
 * so a distributed run's summary, thresholds and merged histograms are built exactly like a run
 * on one generator's (counts add, histograms merge, percentiles from the merge).
 */
export function summaryFromMergedRows(rows: Prisma.RunSecondCreateManyInput[]): K6Summary {
  const acc = new SummaryAccumulator();
  for (const r of [...rows].sort((a, b) => a.second - b.second)) {
    const hist: SecondLine['hist'] = {};
    for (const [metric, col] of Object.entries(COLUMN_OF) as [
      TrendMetric,
      (typeof COLUMN_OF)[TrendMetric],
    ][]) {
      const bytes = r[col];
      if (bytes && bytes.length > 0) hist[metric] = Buffer.from(bytes).toString('base64');
    }
    const checks = readJson(SecondChecksSchema, r.checks, {
      model: 'RunSecond',
      column: 'checks',
      id: `${r.runId}/${r.second}`,
    });
    acc.add({
      v: 1,
      type: 'second',
      ts: Math.floor(new Date(r.ts).getTime() / 1000),
      vus: r.vus,
      vusMax: r.vusMax,
      ...(r.vusAllocated != null ? { vusAllocated: r.vusAllocated } : {}),
      hist,
      requests: r.requests,
      failed: r.failed,
      status:
        readJson(
          StatusCountsSchema,
          r.statusCounts,
          { model: 'RunSecond', column: 'statusCounts', id: `${r.runId}/${r.second}` },
          {},
        ) ?? {},
      dataSentBytes: Number(r.bytesSent),
      dataReceivedBytes: Number(r.bytesReceived),
      iterations: r.iterations,
      droppedIterations: r.droppedIterations,
      ...(r.checkFailed ? { checkFailed: r.checkFailed } : {}),
      ...(checks
        ? {
            checks: checks.items,
            ...(checks.overflow ? { checksOverflow: checks.overflow } : {}),
          }
        : {}),
    });
  }
  return acc.summary();
}

/**
 * The run's tagged series (the sub-metrics its thresholds name) over its merged seconds: each
 * series summed as the generators' seconds were merged (counts and sums add, a trend's histograms
 * merge exactly), and a series a threshold names that no second had, with no sample (`none`), as
 * a single k6's end line lists it. What a distributed run's sub-metric thresholds are judged on.
 */
export function subMetricsFromMergedRows(
  rows: Prisma.RunSecondCreateManyInput[],
  thresholdMetrics: readonly string[],
): K6SubMetric[] {
  const summed =
    sumCustomMetrics(
      rows.map((r) =>
        readJson(CustomMetricsSchema, r.subMetrics, {
          model: 'RunSecond',
          column: 'subMetrics',
          id: `${r.runId}/${r.second}`,
        }),
      ),
    ) ?? {};
  const out: K6SubMetric[] = [];
  const seen = new Set<string>();
  const series = (name: string) => {
    const p = parseSubMetric(name);
    return p ? { name, metric: p.metric, tags: Object.fromEntries(p.tags) } : null;
  };
  for (const [name, v] of Object.entries(summed)) {
    const s = series(name);
    if (!s) continue;
    seen.add(canonicalSubMetric(name) ?? name);
    out.push({
      ...s,
      type: v.type,
      count: v.count,
      ...(v.time !== undefined ? { time: v.time } : {}),
      ...(v.negative ? { negative: v.negative } : {}),
      ...(v.aboveTop ? { aboveTop: v.aboveTop } : {}),
      ...(v.trend !== undefined ? { trend: v.trend } : {}),
      ...(v.histogram ? { histogram: v.histogram } : {}),
      ...(v.type === 'rate' ? { rate: v.count > 0 ? (v.nonZero ?? 0) / v.count : null } : {}),
      ...(v.sum !== undefined ? { sum: v.sum } : {}),
      ...(v.value !== undefined ? { value: v.value } : {}),
    });
  }
  for (const metric of thresholdMetrics) {
    const key = canonicalSubMetric(metric);
    if (key === null || seen.has(key)) continue;
    const s = series(metric.trim());
    if (!s) continue;
    seen.add(key);
    out.push({ ...s, type: 'none', count: 0 });
  }
  return out;
}
