import type { Db } from '@poolbench/db';
import { TERMINAL_RUN_STATUSES } from '@poolbench/scenarios';
import type { Selection } from '~/lib/compare/selection';
import { fingerprint, LruCache, pageCacheOn } from '../cache/finished-data-cache';
import { buildComparison, type Comparison } from './build-comparison';
import { loadGroups } from './load-groups';

type Opts = NonNullable<Parameters<typeof buildComparison>[3]>;

// a comparison of 6 x 15-minute runs is ~100-300 KB in memory: 200 of them stay well under 64 MB
const cache = new LruCache<Comparison>(200);
export const clearComparisonCache = () => cache.clear();

/**
 * buildComparison for a comparison whose runs are all finished, served from memory the second
 * time. The caller's team reads (loadGroups, every run filtered by team) run on every call, so a
 * run of another team is NOT_FOUND with a warm cache too. `version` changes whenever what the
 * comparison shows can: the groups as loaded (runs added by extending an experiment, names,
 * summaries), each run's status and finish time and whether retention pruned its seconds.
 */
export async function cachedComparison(db: Db, teamId: string, selection: Selection, opts: Opts = {}): Promise<{ comparison: Comparison; version: string }> {
  const groups = opts.groups ?? (await loadGroups(db, teamId, selection.items));
  const runIds = groups.flatMap((g) => g.runs.map((r) => r.id));
  const marks = await db.run.findMany({ where: { id: { in: runIds }, teamId }, select: { id: true, status: true, finishedAt: true, secondsPrunedAt: true }, orderBy: { id: 'asc' } });
  const { groups: _loaded, ...rest } = opts;
  const version = fingerprint({ teamId, selection, opts: rest, groups, marks });
  const cacheable = pageCacheOn() && marks.length === runIds.length && marks.every((m) => TERMINAL_RUN_STATUSES.includes(m.status));
  const hit = cacheable ? cache.get(version) : undefined;
  if (hit) return { comparison: hit, version };
  const comparison = await buildComparison(db, teamId, selection, { ...rest, groups });
  if (cacheable) cache.set(version, comparison);
  return { comparison, version };
}
