import { parseRunSecond, type Db } from '@poolbench/db';
import { isTimeTrend, type CustomMetricValue } from '@poolbench/stats';
import { inK6Order } from '../compare/script-metrics';
import { NotFoundError } from '../errors';

/** One second of a script's own metric, as its chart draws it (a trend of times in ms). */
export interface CustomPoint {
  second: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  /** a counter's sum in the second, a rate's share (0..1), a gauge's last value */
  value: number | null;
}

export interface CustomSeries {
  name: string;
  type: CustomMetricValue['type'];
  /** a trend of times (ms); false for a trend of plain numbers and for the other kinds */
  time: boolean;
  /** a trend's samples below 0 over its seconds, which its histograms could not hold */
  negative: number;
  /** a trend's samples above its histograms' top over its seconds, held at the top */
  aboveTop: number;
  points: CustomPoint[];
}

function pointOf(second: number, v: CustomMetricValue): CustomPoint {
  const t = v.trend ?? null;
  return {
    second,
    p50: t?.p50 ?? null,
    p95: t?.p95 ?? null,
    p99: t?.p99 ?? null,
    max: t?.max ?? null,
    value:
      v.type === 'counter'
        ? (v.sum ?? 0)
        : v.type === 'rate'
          ? (v.rate ?? null)
          : v.type === 'gauge'
            ? (v.value ?? null)
            : null,
  };
}

/**
 * A run's own metrics per second (RunSecond.custom), or its tagged series (RunSecond.subMetrics,
 * only those `names` lists when given), one series each, by name (`inK6Order`).
 */
export async function customSeries(
  db: Db,
  teamId: string,
  runId: string,
  source: 'custom' | 'subMetrics' = 'custom',
  names?: readonly string[],
): Promise<CustomSeries[]> {
  const run = await db.run.findFirst({ where: { id: runId, teamId }, select: { id: true } });
  if (!run) throw new NotFoundError('run');
  const where = { runId, segment: 'all' };
  const orderBy = { second: 'asc' } as const;
  const rows =
    source === 'custom'
      ? (
          await db.runSecond.findMany({
            where,
            select: { runId: true, second: true, custom: true },
            orderBy,
          })
        )
          .map(parseRunSecond)
          .map((r) => ({ second: r.second, values: r.custom }))
      : (
          await db.runSecond.findMany({
            where,
            select: { runId: true, second: true, subMetrics: true },
            orderBy,
          })
        )
          .map(parseRunSecond)
          .map((r) => ({ second: r.second, values: r.subMetrics }));
  const wanted = names ? new Set(names) : null;
  const out = new Map<string, CustomSeries>();
  for (const row of rows) {
    for (const [name, v] of Object.entries(row.values ?? {})) {
      if (wanted && !wanted.has(name)) continue;
      let s = out.get(name);
      if (!s)
        out.set(
          name,
          (s = { name, type: v.type, time: isTimeTrend(v), negative: 0, aboveTop: 0, points: [] }),
        );
      s.negative += v.negative ?? 0;
      s.aboveTop += v.aboveTop ?? 0;
      s.points.push(pointOf(row.second, v));
    }
  }
  return inK6Order(out.keys()).map((name) => out.get(name)!);
}
