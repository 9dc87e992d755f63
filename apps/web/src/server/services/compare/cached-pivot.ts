import { MEASURED_RUN_STATUSES } from '@poolbench/contracts';
import type { Db } from '@poolbench/db';
import { fingerprint, LruCache, pageCacheOn } from '../cache/finished-data-cache';
import { NotFoundError } from '../errors';
import { experimentPivot, PIVOT_AXES, type Pivot } from './pivot';

const cache = new LruCache<Pivot>(500);
export const clearPivotCache = () => cache.clear();

/**
 * experimentPivot without re-reading and re-validating every run's summary when nothing it rests
 * on changed: a cheap probe of the same rows minus the summaries (a measured run's summary is
 * written once, when it finishes) is the key. The probe is filtered by team like the pivot itself,
 * so another team's experiment is NOT_FOUND however warm the cache is.
 */
export async function cachedExperimentPivot(
  db: Db,
  teamId: string,
  experimentId: string,
  metric: string,
): Promise<Pivot> {
  if (!pageCacheOn()) return experimentPivot(db, teamId, experimentId, metric);
  const probe = await db.experiment.findFirst({
    where: { id: experimentId, teamId },
    select: {
      ...PIVOT_AXES,
      runs: {
        where: { status: { in: [...MEASURED_RUN_STATUSES] } },
        select: { id: true, status: true, finishedAt: true, poolConfigId: true, scenarioId: true },
        orderBy: { id: 'asc' },
      },
    },
  });
  if (!probe) throw new NotFoundError('experiment');
  const key = fingerprint({ experimentId, metric, probe });
  return cache.getOrMake(key, () => experimentPivot(db, teamId, experimentId, metric));
}
