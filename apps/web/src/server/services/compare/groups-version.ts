import type { Db } from '@poolbench/db';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { fingerprint, pageCacheOn } from '../cache/finished-data-cache';
import type { CompareGroup } from './load-groups';

/**
 * The cache key of something computed from loaded compare groups, and whether it may be cached at
 * all: only when every run has ended (and the page caches are on). The key changes whenever what
 * was computed can: the groups as loaded (runs added by extending an experiment, names,
 * summaries), each run's status and finish time and whether retention pruned its seconds, plus
 * whatever else the caller computed from (`parts`: the selection, options).
 */
export async function groupsVersion(
  db: Db,
  teamId: string,
  groups: CompareGroup[],
  parts: Record<string, unknown>,
): Promise<{ version: string; cacheable: boolean }> {
  const runIds = groups.flatMap((g) => g.runs.map((r) => r.id));
  const marks = await db.run.findMany({
    where: { id: { in: runIds }, teamId },
    select: { id: true, status: true, finishedAt: true, secondsPrunedAt: true },
    orderBy: { id: 'asc' },
  });
  const version = fingerprint({ teamId, ...parts, groups, marks });
  const cacheable =
    pageCacheOn() &&
    marks.length === runIds.length &&
    marks.every((m) => TERMINAL_RUN_STATUSES.includes(m.status));
  return { version, cacheable };
}
