import type { Db } from '@poolbench/db';
import { MAX_REPEATS } from '@poolbench/runs';
import type { Selection } from '~/lib/compare/selection';
import { LruCache } from '../cache/finished-data-cache';
import { groupsVersion } from './groups-version';
import { buildRepeatsNeeded, type RepeatsNeededCell } from './repeats-needed';
import { resolveBaseline } from './resolve-baseline';
import { loadNoiseFloors } from './group-statistics';

export interface RepeatsNeededView {
  baselineIndex: number;
  cells: RepeatsNeededCell[];
  /** the experiments of the compared cells, read on every call: whether repeats can be added now */
  experiments: Array<{
    id: string;
    name: string;
    repeats: number;
    running: boolean;
    maxAddRepeats: number;
  }>;
}

// a few dozen small entries per comparison
const cache = new LruCache<RepeatsNeededCell[]>(500);
export const clearRepeatsNeededCache = () => cache.clear();

/**
 * The repeats estimates of the compare view's inconclusive verdicts (buildRepeatsNeeded), with the
 * same baseline compare.get picks, kept in memory once every run has ended like finished
 * comparisons. The team-scoped reads run on every call, so another team's ids are NOT_FOUND with a
 * warm cache too; the experiments' state is never cached (extending one changes it at once).
 */
export async function cachedRepeatsNeeded(
  db: Db,
  teamId: string,
  selection: Selection,
): Promise<RepeatsNeededView> {
  const { groups, baselineIndex } = await resolveBaseline(db, teamId, selection);
  const floors = await loadNoiseFloors(db, teamId, groups, selection);
  const { version, cacheable } = await groupsVersion(db, teamId, groups, {
    selection,
    baselineIndex,
    floors: [...floors.values()].map((f) => f.experimentId),
  });
  const build = () => buildRepeatsNeeded(db, selection, groups, baselineIndex, floors);
  const cells = cacheable ? await cache.getOrMake(version, build) : await build();
  const experimentIds = [
    ...new Set(groups.filter((g) => g.item.kind === 'cell').map((g) => g.experimentId)),
  ];
  const experiments = await db.experiment.findMany({
    where: { id: { in: experimentIds }, teamId },
    select: { id: true, name: true, repeats: true, status: true },
    orderBy: { id: 'asc' },
  });
  return {
    baselineIndex,
    cells,
    experiments: experiments.map((e) => ({
      id: e.id,
      name: e.name,
      repeats: e.repeats,
      running: e.status === 'queued' || e.status === 'running',
      maxAddRepeats: Math.max(0, MAX_REPEATS - e.repeats),
    })),
  };
}
