import { secondsTsBounds, type Db } from '@poolbench/db';
import {
  SERIES_METRICS,
  type SeriesMetricKey,
  type SeriesPointOut,
} from '~/lib/compare/series-metrics';

// SQL expression per series metric, over RunSecond s and its summed ResourceSample r.
const EXPR: Record<SeriesMetricKey, string> = {
  rps: 's.requests::float8',
  p50Ms: 's."p50Ms"',
  p95Ms: 's."p95Ms"',
  p99Ms: 's."p99Ms"',
  errorPct: 'CASE WHEN s.requests > 0 THEN 100.0 * s.failed / s.requests END',
  connectingP95Ms: 's."connectingP95Ms"',
  cpuPercent: 'r."cpuPercent"',
  rssMiB: 'r."rssBytes" / 1048576.0',
  poolInUse: 'r."poolInUse"::float8',
  poolWaitMs: 'r."poolWaitMs"',
  dbTotal: 'r."dbTotal"::float8',
  upstreamInUse: 'r."upstreamInUse"::float8',
  upstreamWaitMs: 'r."upstreamWaitMs"',
};
const KEYS = SERIES_METRICS.map((m) => m.key);

interface RunArrays {
  runId: string;
  seconds: number[];
  requests: number[];
  failed: number[];
  m: Array<Array<number | null>>;
}

function medianOf(vs: number[], n: number): number {
  // n is the number of repeats at one second: tiny, so insertion sort in place
  for (let i = 1; i < n; i++) {
    const v = vs[i]!;
    let j = i - 1;
    while (j >= 0 && vs[j]! > v) {
      vs[j + 1] = vs[j]!;
      j--;
    }
    vs[j + 1] = v;
  }
  return n % 2 ? vs[n >> 1]! : (vs[n / 2 - 1]! + vs[n / 2]!) / 2;
}

/**
 * Per-second bands: for each group and second the median across the group's repeats and their
 * min and max, then bucketed to at most `maxPoints` points (mean of medians, min of minima, max of
 * maxima, so no spike disappears). Each run comes back as one row of arrays (one per metric,
 * ordered by second), which is far cheaper to transfer and parse than a row per second.
 */
export async function seriesBands(
  db: Db,
  groups: Array<{ runIds: string[] }>,
  window: { from: number; to: number } | null,
  maxPoints: number,
): Promise<{
  series: Record<SeriesMetricKey, SeriesPointOut[]>;
  totals: Array<{ requests: number; failed: number }>;
  durationSeconds: number;
}> {
  const runIds = groups.flatMap((g) => g.runIds);
  const from = window?.from ?? 0;
  const to = window?.to ?? 2_147_483_647;
  const series = Object.fromEntries(KEYS.map((k) => [k, [] as SeriesPointOut[]])) as Record<
    SeriesMetricKey,
    SeriesPointOut[]
  >;
  const totals = groups.map(() => ({ requests: 0, failed: 0 }));
  if (runIds.length === 0) return { series, totals, durationSeconds: 0 };
  const ts = await secondsTsBounds(db, runIds);
  const rows = await db.$queryRawUnsafe<
    Array<{
      runId: string;
      seconds: number[];
      requests: number[];
      failed: number[];
      m: Array<Array<number | null>>;
    }>
  >(
    `SELECT "runId", array_agg(second) AS seconds, array_agg(requests) AS requests, array_agg(failed) AS failed,
            ARRAY[${KEYS.map((_, i) => `array_agg(m${i})`).join(', ')}] AS m
       FROM (SELECT s."runId", s.second, s.requests, s.failed, ${KEYS.map((k, i) => `(${EXPR[k]})::float8 AS m${i}`).join(', ')}
               FROM "RunSecond" s
               LEFT JOIN "ResourceSample" r ON r."runId" = s."runId" AND r.second = s.second AND r.instance = -1 AND r.ts >= $4 AND r.ts < $5
              WHERE s."runId" = ANY($1::text[]) AND s.segment = 'all' AND s.second >= $2 AND s.second < $3 AND s.ts >= $4 AND s.ts < $5
              ORDER BY s."runId", s.second) x
      GROUP BY "runId"`,
    runIds,
    from,
    to,
    ts.from,
    ts.to,
  );
  const byRun = new Map<string, RunArrays>(rows.map((r) => [r.runId, r]));
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    if (r.seconds.length === 0) continue;
    lo = Math.min(lo, r.seconds[0]!);
    hi = Math.max(hi, r.seconds.at(-1)!);
  }
  if (!Number.isFinite(lo)) return { series, totals, durationSeconds: 0 };
  const span = hi - lo + 1;
  const size = Math.max(1, Math.ceil(span / maxPoints));
  const buckets = Math.ceil(span / size);
  // dense [metric][group][second - lo] lookups; NaN = no value
  const G = groups.length;
  const scratch: number[] = [];
  for (let gi = 0; gi < G; gi++) {
    const runs = groups[gi]!.runIds.map((id) => byRun.get(id)).filter((r): r is RunArrays => !!r);
    const index = runs.map((r) => {
      const pos = new Int32Array(span).fill(-1);
      r.seconds.forEach((s, i) => (pos[s - lo] = i));
      return pos;
    });
    for (const r of runs) {
      for (const v of r.requests) totals[gi]!.requests += v;
      for (const v of r.failed) totals[gi]!.failed += v;
    }
    KEYS.forEach((key, mi) => {
      const out = series[key];
      for (let b = 0; b < buckets; b++) {
        let sumMed = 0;
        let nMed = 0;
        let min = Infinity;
        let max = -Infinity;
        for (let s = b * size; s < Math.min(span, (b + 1) * size); s++) {
          let n = 0;
          for (let ri = 0; ri < runs.length; ri++) {
            const i = index[ri]![s]!;
            if (i < 0) continue;
            const v = runs[ri]!.m[mi]![i];
            if (v === null || v === undefined || !Number.isFinite(v)) continue;
            scratch[n++] = v;
            if (v < min) min = v;
            if (v > max) max = v;
          }
          if (n > 0) {
            sumMed += medianOf(scratch, n);
            nMed++;
          }
        }
        if (gi === 0)
          out.push({
            second: lo + b * size,
            values: new Array<SeriesPointOut['values'][number]>(G).fill(null),
          });
        out[b]!.values[gi] = nMed ? { med: sumMed / nMed, min, max } : null;
      }
    });
  }
  return { series, totals, durationSeconds: hi + 1 };
}
