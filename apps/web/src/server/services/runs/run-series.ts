import type { Db } from '@poolbench/db';
import type { SeriesPoint } from '@poolbench/scenarios';
import { NotFoundError } from '../errors';
import { downsample, RUN_CHART_MAX_POINTS } from './downsample';

interface Row {
  second: number;
  requests: number;
  failed: number;
  statusCounts: unknown;
  droppedIterations: number;
  vus: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  meanMs: number | null;
  connectingP95Ms: number | null;
  blockedP95Ms: number | null;
  cpuPercent: number | null;
  rssBytes: bigint | null;
  poolInUse: number | null;
  poolIdle: number | null;
  poolTotal: number | null;
  poolWaitCount: number | null;
  poolWaitMs: number | null;
  dbActive: number | null;
  dbIdle: number | null;
  dbTotal: number | null;
  dbNewConns: number | null;
}

/**
 * The run's per-second points: load metrics joined with the summed resource sample (instance -1)
 * of the same second, in one query (no histograms are read), then downsampled on the server.
 */
export async function getRunSeries(db: Db, teamId: string, runId: string, maxPoints = RUN_CHART_MAX_POINTS): Promise<{ points: SeriesPoint[]; totalSeconds: number; downsampled: boolean }> {
  const run = await db.run.findFirst({ where: { id: runId, teamId }, select: { id: true } });
  if (!run) throw new NotFoundError('run');
  const rows = await db.$queryRaw<Row[]>`
    SELECT s.second, s.requests, s.failed, s."statusCounts", s."droppedIterations", s.vus,
           s."p50Ms", s."p95Ms", s."p99Ms", s."maxMs", s."meanMs", s."connectingP95Ms", s."blockedP95Ms",
           r."cpuPercent", r."rssBytes", r."poolInUse", r."poolIdle", r."poolTotal", r."poolWaitCount", r."poolWaitMs",
           r."dbActive", r."dbIdle", r."dbTotal", r."dbNewConns"
      FROM "RunSecond" s
      LEFT JOIN "ResourceSample" r ON r."runId" = s."runId" AND r.second = s.second AND r.instance = -1
     WHERE s."runId" = ${runId} AND s.segment = 'all'
     ORDER BY s.second`;
  const points: SeriesPoint[] = rows.map((r) => ({
    ...r,
    statusCounts: (r.statusCounts ?? {}) as Record<string, number>,
    rssBytes: r.rssBytes === null ? null : Number(r.rssBytes),
  }));
  const out = downsample(points, maxPoints);
  return { points: out, totalSeconds: points.length, downsampled: out.length !== points.length };
}
