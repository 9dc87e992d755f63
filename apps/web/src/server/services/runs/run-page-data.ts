import type { Db } from '@poolbench/db';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { RunDetailSchema, RunSeriesSchema } from '../../api/routers/run.types';
import { fingerprint } from '../cache/finished-data-cache';
import { TeamPages } from '../cache/team-pages';
import { RUN_DATA_MAX_POINTS, type PageBytes } from '../cache/page-bytes-response';
import { pointsOf, type PageData } from '../cache/page-data';
import { NotFoundError } from '../errors';
import { getRun } from './get-run';
import { RUN_CHART_MAX_POINTS } from './downsample';
import { getRunSeries } from './run-series';
import { isId } from '~/lib/schemas/ids';

// a finished 15-minute run's page is ~25 KB compressed: 400 of them stay near 10 MB
const kept = new TeamPages('run', 400);
const keyOf = (runId: string, maxPoints: number) => `${runId}\u0000${maxPoints}`;

/**
 * Everything the run page shows of a run (`getRun` and its chart series) as one compressed
 * payload. A finished run's page is computed once per state of its row and served from memory
 * as the same bytes, under an ETag a browser revalidates for a 304. The team check is the first
 * query of every call, before any cache: another team's run id is NOT_FOUND however warm the
 * cache is. The key holds everything the page reads that can still change after the run ended:
 * the row's update time (notes), retention pruning its seconds, and the experiment's and
 * target's names.
 */
export async function runPageBytes(
  db: Db,
  teamId: string,
  runId: string,
  maxPoints: number,
): Promise<PageBytes> {
  return kept.bytes(teamId, keyOf(runId, maxPoints), async () => {
    const head = await db.run.findFirst({
      where: { id: runId, teamId },
      select: {
        status: true,
        updatedAt: true,
        finishedAt: true,
        secondsPrunedAt: true,
        experiment: { select: { name: true } },
        target: { select: { name: true } },
      },
    });
    if (!head) throw new NotFoundError('run');
    return {
      etag: `"${fingerprint({ runId, maxPoints, head })}"`,
      finished: TERMINAL_RUN_STATUSES.includes(head.status),
      render: async () => {
        const [run, series] = await Promise.all([
          getRun(db, teamId, runId),
          getRunSeries(db, teamId, runId, maxPoints),
        ]);
        // what tRPC's run.get and run.series would send: their output schemas shape (and strip) it
        return { run: RunDetailSchema.parse(run), series: RunSeriesSchema.parse(series) };
      },
    };
  });
}

/** The run page's data, `/api/runs/<id>/data?maxPoints=`, for its route and the fast path. */
export const RUN_PAGE_DATA: PageData<string> = {
  notFound: 'run not found',
  ask(id, q) {
    const maxPoints = pointsOf(q, RUN_CHART_MAX_POINTS, RUN_DATA_MAX_POINTS);
    if (typeof maxPoints !== 'number') return maxPoints;
    return id !== null && isId(id) ? { key: id, maxPoints } : 'not-found';
  },
  read: (db, teamId, a) => runPageBytes(db, teamId, a.key, a.maxPoints),
  recent: (teamId, a) => kept.recentPage(teamId, keyOf(a.key, a.maxPoints)),
};
