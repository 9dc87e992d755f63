import type { Db } from '@poolbench/db';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { fingerprint, LruCache, pageCacheOn } from '../cache/finished-data-cache';
import { NotFoundError } from '../errors';
import { getRunSeries } from './run-series';

type Series = Awaited<ReturnType<typeof getRunSeries>>;
// one 15-minute run's chart data is ~100 KB: 500 of them stay under ~50 MB
const cache = new LruCache<Series>(500);
export const clearRunSeriesCache = () => cache.clear();

/**
 * The run page's chart data. A finished run's seconds never change, except when retention prunes
 * them (`secondsPrunedAt`), so its series is computed once per (run, points, state) and kept in
 * memory. The team check runs on every call before the cache is looked at: another team's run id
 * is NOT_FOUND however warm the cache is.
 */
export async function cachedRunSeries(
  db: Db,
  teamId: string,
  runId: string,
  maxPoints: number,
): Promise<Series> {
  const run = await db.run.findFirst({
    where: { id: runId, teamId },
    select: { status: true, finishedAt: true, secondsPrunedAt: true },
  });
  if (!run) throw new NotFoundError('run');
  if (!pageCacheOn() || !TERMINAL_RUN_STATUSES.includes(run.status))
    return getRunSeries(db, teamId, runId, maxPoints);
  const key = fingerprint({ runId, maxPoints, run });
  return cache.getOrMake(key, () => getRunSeries(db, teamId, runId, maxPoints));
}
