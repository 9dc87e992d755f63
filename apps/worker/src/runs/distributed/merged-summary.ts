import {
  readJson,
  RUN_SECOND_HIST_COLUMNS,
  SecondChecksSchema,
  StatusCountsSchema,
  type Prisma,
} from '@poolbench/db';
import {
  SummaryAccumulator,
  type K6Summary,
  type SecondLine,
  type TrendMetric,
} from '@poolbench/k6';

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
