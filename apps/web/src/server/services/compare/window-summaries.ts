import type { Db } from '@poolbench/db';
import { histogramStatsMs, type Histogram, type RunSummary } from '@poolbench/stats';
import { runHistograms } from './histogram-cache';

type Window = { from: number; to: number };
type Num = number | string | bigint | null;

interface CounterRow {
  runId: string;
  span: number;
  requests: Num;
  failed: Num;
  bytesSent: Num;
  bytesReceived: Num;
  iterations: Num;
  droppedIterations: Num;
  vusMax: Num;
}

interface ResourceRow {
  runId: string;
  cpuMean: Num;
  cpuPeak: Num;
  rssMean: Num;
  rssPeak: Num;
  waitMean: Num;
  waitPeak: Num;
  inUsePeak: Num;
  acquireTimeouts: Num;
  dbPeak: Num;
  dbNew: Num;
  dbTooMany: Num;
}

const num = (v: Num): number | null => (v === null ? null : Number(v));

/**
 * Each run's summary over an elapsed-seconds window [from, to), so the statistics table compares
 * the same part of every run as the charts show (e.g. the cold start alone, or the steady state
 * without warm-up). Built from the stored per-second rows exactly as the worker builds the whole-run
 * summary: counters summed, latency and connection set-up from the merged per-second histograms,
 * target resources averaged and peaked over the window's samples. Throughput is requests per
 * second of the window that the run covers. A run with no second in the window has no summary
 * (it drops out of n, and the table says so).
 */
export async function windowSummaries(
  db: Db,
  runs: Array<{ id: string; finished: boolean }>,
  window: Window,
  durations?: Map<string, Histogram>,
): Promise<Map<string, RunSummary | null>> {
  const ids = runs.map((r) => r.id);
  const out = new Map<string, RunSummary | null>(ids.map((id) => [id, null]));
  if (ids.length === 0) return out;
  const [counters, resources, duration, blocked] = await Promise.all([
    db.$queryRaw<CounterRow[]>`
      SELECT s."runId",
             (SELECT max(a.second) + 1 FROM "RunSecond" a WHERE a."runId" = s."runId" AND a.segment = 'all')::int AS span,
             sum(s.requests) AS requests, sum(s.failed) AS failed, sum(s."bytesSent") AS "bytesSent",
             sum(s."bytesReceived") AS "bytesReceived", sum(s.iterations) AS iterations,
             sum(s."droppedIterations") AS "droppedIterations", max(s."vusMax") AS "vusMax"
        FROM "RunSecond" s
       WHERE s."runId" = ANY(${ids}::text[]) AND s.segment = 'all' AND s.second >= ${window.from} AND s.second < ${window.to}
       GROUP BY s."runId"`,
    db.$queryRaw<ResourceRow[]>`
      SELECT "runId", avg("cpuPercent") AS "cpuMean", max("cpuPercent") AS "cpuPeak", avg("rssBytes") AS "rssMean",
             max("rssBytes") AS "rssPeak", avg("poolWaitMs") AS "waitMean", max("poolWaitMs") AS "waitPeak",
             max("poolInUse") AS "inUsePeak", sum("poolAcquireTimeouts") AS "acquireTimeouts",
             max("dbTotal") AS "dbPeak", sum("dbNewConns") AS "dbNew", sum("dbTooManyClients") AS "dbTooMany"
        FROM "ResourceSample"
       WHERE "runId" = ANY(${ids}::text[]) AND instance = -1 AND second >= ${window.from} AND second < ${window.to}
       GROUP BY "runId"`,
    durations ?? runHistograms(db, runs, window),
    runHistograms(db, runs, window, 'blockedHist'),
  ]);
  const res = new Map(resources.map((r) => [r.runId, r]));
  for (const c of counters) {
    const seconds = Math.max(0, Math.min(window.to, c.span) - window.from);
    const requests = num(c.requests) ?? 0;
    const failed = num(c.failed) ?? 0;
    const r = res.get(c.runId);
    out.set(c.runId, {
      requests,
      failed,
      errorRate: requests > 0 ? failed / requests : null,
      rps: seconds > 0 ? requests / seconds : null,
      durationMs: seconds * 1000,
      seconds,
      bytesSent: num(c.bytesSent) ?? 0,
      bytesReceived: num(c.bytesReceived) ?? 0,
      iterations: num(c.iterations) ?? 0,
      droppedIterations: num(c.droppedIterations) ?? 0,
      vusMax: num(c.vusMax),
      statusCounts: {},
      latency: statsOf(duration.get(c.runId)),
      waiting: null,
      connecting: null,
      tlsHandshaking: null,
      blocked: statsOf(blocked.get(c.runId)),
      iteration: null,
      resources: {
        cpuMeanPercent: num(r?.cpuMean ?? null),
        cpuPeakPercent: num(r?.cpuPeak ?? null),
        rssMeanBytes: num(r?.rssMean ?? null),
        rssPeakBytes: num(r?.rssPeak ?? null),
        poolWaitMsMean: num(r?.waitMean ?? null),
        poolWaitMsPeak: num(r?.waitPeak ?? null),
        poolInUsePeak: num(r?.inUsePeak ?? null),
        poolAcquireTimeouts: num(r?.acquireTimeouts ?? null),
        dbConnectionsPeak: num(r?.dbPeak ?? null),
        dbNewConnsTotal: num(r?.dbNew ?? null),
        dbTooManyClients: num(r?.dbTooMany ?? null),
      },
    });
  }
  return out;
}

const statsOf = (h: Histogram | undefined) => (h ? histogramStatsMs(h) : null);
