import { parseRunSecond, RUN_SECOND_HIST_COLUMNS, type Db, type Prisma } from '@poolbench/db';
import { encodeHistogram, histogramStatsMs, sumChecks, sumCustomMetrics } from '@poolbench/stats';
import { mergeStoredHistograms } from '@poolbench/stats/stored';
import { runSecondRow, type RunSecondParts } from './run-second-row';

/** RunSecond.segment of a load generator's own rows; the run's merged rows keep 'all'. */
export const segmentKey = (index: number) => `gen:${index}`;

const HIST = Object.values(RUN_SECOND_HIST_COLUMNS);
type SecondRow = Prisma.RunSecondGetPayload<object>;

const bytesOf = (h: ReturnType<typeof mergeStoredHistograms>) =>
  h.totalCount > 0 ? new Uint8Array(Buffer.from(encodeHistogram(h), 'base64')) : null;

/**
 * One second of the run from its generators' rows of that second: counts add, histograms merge
 * exactly (HDR, bucket by bucket), and the percentiles are read from the merged histogram, never
 * averaged. Pure, so tests can compare it with an independent merge.
 */
export function mergeSecondRows(
  runId: string,
  second: number,
  rows: SecondRow[],
): Prisma.RunSecondCreateManyInput {
  const statusCounts: Record<string, number> = {};
  for (const r of rows)
    for (const [k, v] of Object.entries(parseRunSecond(r).statusCounts ?? {}))
      statusCounts[k] = (statusCounts[k] ?? 0) + v;
  const sum = (f: (r: SecondRow) => number) => rows.reduce((a, r) => a + f(r), 0);
  const hists = Object.fromEntries(
    HIST.map((c) => [c, mergeStoredHistograms(rows.map((r) => r[c]))]),
  ) as Record<(typeof HIST)[number], ReturnType<typeof mergeStoredHistograms>>;
  return runSecondRow({
    runId,
    second,
    segment: 'all',
    ts: new Date(Math.min(...rows.map((r) => r.ts.getTime()))),
    counts: {
      requests: sum((r) => r.requests),
      failed: sum((r) => r.failed),
      statusCounts,
      bytesSent: rows.reduce((a, r) => a + r.bytesSent, 0n),
      bytesReceived: rows.reduce((a, r) => a + r.bytesReceived, 0n),
      iterations: sum((r) => r.iterations),
      droppedIterations: sum((r) => r.droppedIterations),
      checkFailed: sum((r) => r.checkFailed),
      vus: sum((r) => r.vus),
      vusMax: sum((r) => r.vusMax),
      // allocated VUs add up like the others; unknown when no generator recorded them
      vusAllocated: rows.some((r) => r.vusAllocated !== null)
        ? sum((r) => r.vusAllocated ?? 0)
        : null,
    },
    duration: histogramStatsMs(hists.durationHist),
    connectingP95Ms: histogramStatsMs(hists.connectingHist)?.p95,
    blockedP95Ms: histogramStatsMs(hists.blockedHist)?.p95,
    hists: Object.fromEntries(HIST.map((c) => [c, bytesOf(hists[c])])) as RunSecondParts['hists'],
    // each generator's checks of the second, added up per name and group
    checks: sumChecks(rows.map((r) => parseRunSecond(r).checks)),
    // their own metrics: sums add, trend histograms merge exactly
    custom: sumCustomMetrics(rows.map((r) => parseRunSecond(r).custom)),
    // the tagged series thresholds name (`metric{tag:value}`), merged the same way
    subMetrics: sumCustomMetrics(rows.map((r) => parseRunSecond(r).subMetrics)),
  });
}

/**
 * The seconds every one of the run's `count` generators has closed: those below the smallest
 * "latest second written" over the generators (a generator writes its seconds in order, so one
 * that wrote second n has written every second before it). Null while some generator has written
 * nothing yet. The live chart merges only these, so a live second already has its final counts
 * however late a loaded generator writes (a clock-based guess was wrong under load).
 */
export async function closedSecondsBefore(
  db: Db,
  runId: string,
  count: number,
): Promise<number | null> {
  const latest = await db.runSecond.groupBy({
    by: ['segment'],
    where: { runId, segment: { startsWith: 'gen:' } },
    _max: { second: true },
  });
  if (latest.length < count) return null;
  return Math.min(...latest.map((l) => l._max.second ?? -Infinity));
}

/**
 * (Re)writes the run's merged 'all' rows from its generators' rows, for seconds in [from, to)
 * (every second when omitted). Idempotent and safe under concurrency: merges of one run are
 * serialised by a transaction-scoped advisory lock, and each reads the generators' rows inside
 * that lock, so a live merge and the final one (or two workers) never both insert a second; the
 * last one to run writes the complete merge. Returns the merged rows.
 */
export async function mergeSegmentSeconds(
  db: Db,
  runId: string,
  window: { from?: number; to?: number } = {},
): Promise<Prisma.RunSecondCreateManyInput[]> {
  const second = {
    ...(window.from !== undefined ? { gte: window.from } : {}),
    ...(window.to !== undefined ? { lt: window.to } : {}),
  };
  return db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(${`merge-seconds:${runId}`}))) AS l`;
      const rows = await tx.runSecond.findMany({
        where: { runId, segment: { startsWith: 'gen:' }, second },
        orderBy: { second: 'asc' },
      });
      const bySecond = new Map<number, SecondRow[]>();
      for (const r of rows) bySecond.set(r.second, [...(bySecond.get(r.second) ?? []), r]);
      const merged = [...bySecond.entries()].map(([s, rs]) => mergeSecondRows(runId, s, rs));
      if (merged.length === 0) return [];
      await tx.runSecond.deleteMany({
        where: { runId, segment: 'all', second: { in: merged.map((m) => m.second) } },
      });
      await tx.runSecond.createMany({ data: merged });
      return merged;
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
}
