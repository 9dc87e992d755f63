import type { Db } from '@poolbench/db';
import { median } from '@poolbench/stats';

/** Per-second metrics overlaid in the compare charts (and exported as CSV/JSON). */
export const SERIES_METRICS = [
  { key: 'rps', label: 'Throughput', unit: 'req/s' },
  { key: 'p50Ms', label: 'Latency p50', unit: 'ms' },
  { key: 'p95Ms', label: 'Latency p95', unit: 'ms' },
  { key: 'p99Ms', label: 'Latency p99', unit: 'ms' },
  { key: 'errorPct', label: 'Errors', unit: '%' },
  { key: 'connectingP95Ms', label: 'Connection set-up p95', unit: 'ms' },
  { key: 'cpuPercent', label: 'Target CPU', unit: '%' },
  { key: 'rssMiB', label: 'Target RSS', unit: 'MiB' },
  { key: 'poolInUse', label: 'Pool in use', unit: 'conns' },
  { key: 'poolWaitMs', label: 'Pool wait', unit: 'ms' },
] as const;
export type SeriesMetricKey = (typeof SERIES_METRICS)[number]['key'];

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

/** One band point: the median across a config's repeats and their min and max. */
export type Band = { med: number; min: number; max: number } | null;
export interface SeriesPointOut {
  second: number;
  /** one entry per group, in group order */
  values: Band[];
}

export async function readSeconds(db: Db, runIds: string[], window: { from: number; to: number } | null): Promise<SecondRow[]> {
  if (runIds.length === 0) return [];
  const from = window?.from ?? 0;
  const to = window?.to ?? 2_147_483_647;
  return db.$queryRaw<SecondRow[]>`
    SELECT s."runId", s.second, s.requests, s.failed, s."p50Ms", s."p95Ms", s."p99Ms", s."connectingP95Ms",
           r."cpuPercent", r."rssBytes", r."poolInUse", r."poolWaitMs"
      FROM "RunSecond" s
      LEFT JOIN "ResourceSample" r ON r."runId" = s."runId" AND r.second = s.second AND r.instance = -1
     WHERE s."runId" = ANY(${runIds}::text[]) AND s.segment = 'all' AND s.second >= ${from} AND s.second < ${to}
     ORDER BY s.second`;
}

function valueOf(r: SecondRow, key: SeriesMetricKey): number | null {
  switch (key) {
    case 'rps':
      return r.requests;
    case 'errorPct':
      return r.requests > 0 ? (100 * r.failed) / r.requests : null;
    case 'rssMiB':
      return r.rssBytes === null ? null : Number(r.rssBytes) / 2 ** 20;
    default:
      return r[key];
  }
}

/**
 * Aligns the runs of every group on elapsed seconds and reduces each second to the median and the
 * min-max band across the group's repeats, then buckets long runs to at most `maxPoints` points
 * (mean of medians, min of minima, max of maxima, so no spike disappears).
 */
export function groupSeries(rows: SecondRow[], groups: Array<{ runIds: string[] }>, maxPoints: number): Record<SeriesMetricKey, SeriesPointOut[]> {
  const groupOf = new Map<string, number>();
  groups.forEach((g, gi) => g.runIds.forEach((id) => groupOf.set(id, gi)));
  const bySecond = new Map<number, SecondRow[][]>();
  for (const r of rows) {
    const gi = groupOf.get(r.runId);
    if (gi === undefined) continue;
    let slot = bySecond.get(r.second);
    if (!slot) bySecond.set(r.second, (slot = groups.map(() => [])));
    slot[gi]!.push(r);
  }
  const seconds = [...bySecond.keys()].sort((a, b) => a - b);
  const size = Math.max(1, Math.ceil(seconds.length / maxPoints));
  const out = {} as Record<SeriesMetricKey, SeriesPointOut[]>;
  for (const { key } of SERIES_METRICS) {
    const perSecond: SeriesPointOut[] = seconds.map((second) => ({
      second,
      values: bySecond.get(second)!.map((rs) => {
        const vs = rs.map((r) => valueOf(r, key)).filter((v): v is number => v !== null && Number.isFinite(v));
        return vs.length === 0 ? null : { med: median(vs), min: Math.min(...vs), max: Math.max(...vs) };
      }),
    }));
    if (size === 1) {
      out[key] = perSecond;
      continue;
    }
    const bucketed: SeriesPointOut[] = [];
    for (let i = 0; i < perSecond.length; i += size) {
      const bucket = perSecond.slice(i, i + size);
      bucketed.push({
        second: bucket[0]!.second,
        values: groups.map((_, gi) => {
          const bs = bucket.map((p) => p.values[gi]).filter((b): b is NonNullable<Band> => b !== null && b !== undefined);
          if (bs.length === 0) return null;
          return { med: bs.reduce((a, b) => a + b.med, 0) / bs.length, min: Math.min(...bs.map((b) => b.min)), max: Math.max(...bs.map((b) => b.max)) };
        }),
      });
    }
    out[key] = bucketed;
  }
  return out;
}
