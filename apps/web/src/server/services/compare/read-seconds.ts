import { secondsTsBounds, type Db } from '@poolbench/db';

export interface SecondRow {
  runId: string;
  second: number;
  requests: number;
  failed: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  connectingP95Ms: number | null;
  cpuPercent: number | null;
  rssBytes: bigint | null;
  poolInUse: number | null;
  poolWaitMs: number | null;
}

export async function readSeconds(
  db: Db,
  runIds: string[],
  window: { from: number; to: number } | null,
): Promise<SecondRow[]> {
  if (runIds.length === 0) return [];
  const from = window?.from ?? 0;
  const to = window?.to ?? 2_147_483_647;
  const ts = await secondsTsBounds(db, runIds);
  return db.$queryRaw<SecondRow[]>`
    SELECT s."runId", s.second, s.requests, s.failed, s."p50Ms", s."p95Ms", s."p99Ms", s."connectingP95Ms",
           r."cpuPercent", r."rssBytes", r."poolInUse", r."poolWaitMs"
      FROM "RunSecond" s
      LEFT JOIN "ResourceSample" r ON r."runId" = s."runId" AND r.second = s.second AND r.instance = -1 AND r.ts >= ${ts.from} AND r.ts < ${ts.to}
     WHERE s."runId" = ANY(${runIds}::text[]) AND s.segment = 'all' AND s.second >= ${from} AND s.second < ${to} AND s.ts >= ${ts.from} AND s.ts < ${ts.to}
     ORDER BY s.second`;
}
