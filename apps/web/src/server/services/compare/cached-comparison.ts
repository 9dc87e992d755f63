import type { Db } from '@poolbench/db';
import type { Selection } from '~/lib/compare/selection';
import { LruCache } from '../cache/finished-data-cache';
import { buildComparison, type Comparison } from './build-comparison';
import { groupsVersion } from './groups-version';
import { loadGroups } from './load-groups';
import { loadNoiseFloors } from './group-statistics';

type Opts = NonNullable<Parameters<typeof buildComparison>[3]>;

// a comparison of 6 x 15-minute runs is ~100-300 KB in memory: 200 of them stay well under 64 MB
const cache = new LruCache<Comparison>(200);
export const clearComparisonCache = () => cache.clear();

/**
 * What a comparison shows depends on, as one version string, and whether it can be kept (every
 * run finished): the caller's team reads (loadGroups, every run filtered by team) run here, so a
 * run of another team is NOT_FOUND with a warm cache too. `version` changes whenever what the
 * comparison shows can (see groupsVersion).
 */
export async function comparisonVersion(
  db: Db,
  teamId: string,
  selection: Selection,
  opts: Opts = {},
) {
  const groups = opts.groups ?? (await loadGroups(db, teamId, selection.items));
  const { groups: _loaded, noiseFloors: _floors, ...rest } = opts;
  // a new calibration changes the floors, so they are part of what the version is of
  const noiseFloors = opts.noiseFloors ?? (await loadNoiseFloors(db, teamId, groups, selection));
  const { version, cacheable } = await groupsVersion(db, teamId, groups, {
    selection,
    opts: rest,
    floors: [...noiseFloors.values()].map((f) => f.experimentId),
  });
  return { version, cacheable, groups, noiseFloors, rest };
}

/** buildComparison for a comparison whose runs are all finished, served from memory the second time. */
export async function cachedComparison(
  db: Db,
  teamId: string,
  selection: Selection,
  opts: Opts = {},
): Promise<{ comparison: Comparison; version: string }> {
  const { version, cacheable, groups, noiseFloors, rest } = await comparisonVersion(
    db,
    teamId,
    selection,
    opts,
  );
  const build = () => buildComparison(db, teamId, selection, { ...rest, groups, noiseFloors });
  const comparison = cacheable ? await cache.getOrMake(version, build) : await build();
  return { comparison, version };
}
