import { readJson, SecondChecksSchema, StatusCountsSchema, type Db } from '@poolbench/db';
import {
  buildRunSummary,
  histogramStatsMs,
  loadTimeMs,
  sumChecks,
  sumStoredSeconds,
  type Histogram,
  type ResourceTotalsRow,
  type RunSummary,
  type StoredSecondCounters,
} from '@poolbench/stats';
import { runHistograms } from './run-histograms';

type Window = { from: number; to: number };

type SecondRow = Omit<StoredSecondCounters, 'statusCounts'> & {
  runId: string;
  ts: Date;
  statusCounts: unknown;
  checks: unknown;
};
type ResourceRow = ResourceTotalsRow & { runId: string };
interface LoadRow {
  id: string;
  loadStartMs: number | null;
  loadEndMs: number | null;
}

const byRun = <T extends { runId: string }>(rows: T[]) => {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const list = out.get(r.runId);
    if (list) list.push(r);
    else out.set(r.runId, [r]);
  }
  return out;
};

/**
 * Each run's summary over an elapsed-seconds window [from, to), so the statistics table compares
 * the same part of every run as the charts show (e.g. the cold start alone, or the steady state
 * without warm-up). Built by the same builder as the whole-run summary (buildRunSummary) from the
 * stored per-second rows: counters summed, latency and connection set-up from the merged
 * per-second histograms, target resources over the window's samples. Throughput divides by the
 * load time inside the window: the part of the run's load phase [loadStartMs, loadEndMs) that
 * the window covers, so partial first and last seconds count by their fraction and empty seconds
 * outside the load not at all (docs/metrics.md). A run with no second in the window has no
 * summary (it drops out of n, and the table says so).
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
  const [seconds, resources, loads, duration, blocked] = await Promise.all([
    db.$queryRaw<SecondRow[]>`
      SELECT "runId", second, ts, requests, failed, "statusCounts", "bytesSent", "bytesReceived", iterations, "droppedIterations", "checkFailed", "vusMax", "vusAllocated", checks
        FROM "RunSecond"
       WHERE "runId" = ANY(${ids}::text[]) AND segment = 'all' AND second >= ${window.from} AND second < ${window.to}`,
    db.$queryRaw<ResourceRow[]>`
      SELECT "runId", "cpuPercent", "rssBytes", "poolWaitMs", "poolInUse", "poolAcquireTimeouts", "dbTotal", "dbNewConns", "dbTooManyClients"
        FROM "ResourceSample"
       WHERE "runId" = ANY(${ids}::text[]) AND instance = -1 AND second >= ${window.from} AND second < ${window.to}`,
    db.$queryRaw<LoadRow[]>`
      SELECT id, (summary->>'loadStartMs')::float8 AS "loadStartMs", (summary->>'loadEndMs')::float8 AS "loadEndMs"
        FROM "Run" WHERE id = ANY(${ids}::text[])`,
    durations ?? runHistograms(db, runs, window),
    runHistograms(db, runs, window, 'blockedHist'),
  ]);
  const resByRun = byRun(resources);
  const loadOf = new Map(
    loads.map((l) => [
      l.id,
      l.loadStartMs !== null && l.loadEndMs !== null
        ? { startMs: l.loadStartMs, endMs: l.loadEndMs }
        : null,
    ]),
  );
  for (const [runId, raw] of byRun(seconds)) {
    const rows = raw.map((r) => ({
      ...r,
      statusCounts: readJson(StatusCountsSchema, r.statusCounts, {
        model: 'RunSecond',
        column: 'statusCounts',
        id: `${runId}@${r.second}`,
      }),
      checks: readJson(SecondChecksSchema, r.checks, {
        model: 'RunSecond',
        column: 'checks',
        id: `${runId}@${r.second}`,
      }),
    }));
    const { counters, vusMax, vusAllocatedMax, loadSeconds } = sumStoredSeconds(rows);
    // Elapsed second 0 is the unix second of any row minus its elapsed second.
    const t0Ms = rows[0]!.ts.getTime() - rows[0]!.second * 1000;
    const load = loadOf.get(runId) ?? null;
    const d = duration.get(runId);
    const b = blocked.get(runId);
    out.set(
      runId,
      buildRunSummary({
        counters,
        vusMax,
        vusAllocatedMax,
        seconds: rows.length,
        load,
        resources: resByRun.get(runId) ?? [],
        loadMs: loadTimeMs(load, t0Ms, loadSeconds, window),
        trends: {
          http_req_duration: d ? histogramStatsMs(d) : null,
          http_req_blocked: b ? histogramStatsMs(b) : null,
        },
        checks: sumChecks(rows.map((r) => r.checks)),
      }),
    );
  }
  return out;
}
