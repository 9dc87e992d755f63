import { Prisma, readJson, secondsTsBounds, StatusCountsSchema, type Db } from '@poolbench/db';
import {
  SERIES_COUNT_FIELDS,
  SERIES_GAUGE_FIELDS,
  SERIES_LATENCY_FIELDS,
  SERIES_RESOURCE_FIELDS,
  toSeriesPoint,
  type SeriesLoadRow,
  type SeriesPoint,
  type SeriesResourceRow,
} from '@poolbench/contracts';
import { NotFoundError } from '../errors';
import { downsample, RUN_CHART_MAX_POINTS } from './downsample';

// Column names come from the shared constant field lists, never from input.
const COLUMNS = Prisma.raw(
  [
    ...[
      'second',
      'statusCounts',
      ...SERIES_COUNT_FIELDS,
      ...SERIES_LATENCY_FIELDS,
      ...SERIES_GAUGE_FIELDS,
    ].map((c) => `s."${c}"`),
    ...SERIES_RESOURCE_FIELDS.map((c) => `r."${c}"`),
  ].join(', '),
);

/**
 * The run's per-second points: load metrics joined with the summed resource sample (instance -1)
 * of the same second, in one query (no histograms are read), then downsampled on the server.
 */
export async function getRunSeries(
  db: Db,
  teamId: string,
  runId: string,
  maxPoints = RUN_CHART_MAX_POINTS,
): Promise<{ points: SeriesPoint[]; totalSeconds: number; downsampled: boolean }> {
  const run = await db.run.findFirst({ where: { id: runId, teamId }, select: { id: true } });
  if (!run) throw new NotFoundError('run');
  const ts = await secondsTsBounds(db, [runId]);
  const rows = await db.$queryRaw<
    Array<Omit<SeriesLoadRow, 'statusCounts'> & SeriesResourceRow & { statusCounts: unknown }>
  >`
    SELECT ${COLUMNS}
      FROM "RunSecond" s
      LEFT JOIN "ResourceSample" r ON r."runId" = s."runId" AND r.second = s.second AND r.instance = -1 AND r.ts >= ${ts.from} AND r.ts < ${ts.to}
     WHERE s."runId" = ${runId} AND s.segment = 'all' AND s.ts >= ${ts.from} AND s.ts < ${ts.to}
     ORDER BY s.second`;
  const points = rows.map((r) =>
    toSeriesPoint(
      {
        ...r,
        statusCounts: readJson(StatusCountsSchema, r.statusCounts, {
          model: 'RunSecond',
          column: 'statusCounts',
          id: `${runId}@${r.second}`,
        }),
      },
      r,
    ),
  );
  const out = downsample(points, maxPoints);
  return { points: out, totalSeconds: points.length, downsampled: out.length !== points.length };
}
