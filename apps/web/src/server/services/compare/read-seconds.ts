import { parseRunSecond, secondsTsBounds, type Db } from '@poolbench/db';
import type { CustomMetrics, SecondChecks } from '@poolbench/stats';

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
  /** the second's k6 checks and the script's own metrics; null without any */
  checks: SecondChecks | null;
  custom: CustomMetrics | null;
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
  const rows = await db.$queryRaw<
    Array<Omit<SecondRow, 'checks' | 'custom'> & { checks: unknown; custom: unknown }>
  >`
    SELECT s."runId", s.second, s.requests, s.failed, s."p50Ms", s."p95Ms", s."p99Ms", s."connectingP95Ms",
           s.checks, s.custom, r."cpuPercent", r."rssBytes", r."poolInUse", r."poolWaitMs"
      FROM "RunSecond" s
      LEFT JOIN "ResourceSample" r ON r."runId" = s."runId" AND r.second = s.second AND r.instance = -1 AND r.ts >= ${ts.from} AND r.ts < ${ts.to}
     WHERE s."runId" = ANY(${runIds}::text[]) AND s.segment = 'all' AND s.second >= ${from} AND s.second < ${to} AND s.ts >= ${ts.from} AND s.ts < ${ts.to}
     ORDER BY s.second`;
  return rows.map(parseRunSecond);
}
