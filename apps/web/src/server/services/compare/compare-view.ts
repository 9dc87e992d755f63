import type { Db } from '@poolbench/db';
import type { Selection } from '~/lib/compare/selection';
import { ComparisonViewSchema } from '../../api/routers/compare.types';
import { fingerprint } from '../cache/finished-data-cache';
import { TeamPages } from '../cache/team-pages';
import {
  COMPARE_DATA_DEFAULT_POINTS,
  COMPARE_DATA_MAX_POINTS,
  type PageBytes,
} from '../cache/page-bytes-response';
import { pointsOf, type PageData } from '../cache/page-data';
import { parseSelectionQuery } from '../exports/selection-from-query';
import { cachedComparison, comparisonVersion } from './cached-comparison';
import { resolveBaseline } from './resolve-baseline';

type Resolved = Awaited<ReturnType<typeof resolveBaseline>>;

/** The baseline part of the view: which saved baseline is in use and which could be. */
function baselinesOf(saved: Resolved['saved']) {
  return {
    savedBaseline:
      saved?.index !== null && saved?.index !== undefined
        ? { index: saved.index, name: saved.name }
        : null,
    availableBaselines: (saved?.available ?? []).map((b) => ({
      id: b.id,
      name: b.name,
      label: b.label,
      item: b.item,
    })),
  };
}

/** The compare view (`compare.get`): without an explicit baseline a saved one among the items. */
export async function compareView(
  db: Db,
  teamId: string,
  selection: Selection,
  maxPoints: number,
  resolved?: Resolved,
) {
  const { groups, baselineIndex, saved } =
    resolved ?? (await resolveBaseline(db, teamId, selection));
  const { comparison } = await cachedComparison(db, teamId, selection, {
    maxPoints,
    baselineIndex,
    groups,
  });
  return { ...comparison, ...baselinesOf(saved) };
}

// a comparison of 6 x 15-minute runs is ~40 KB compressed: 200 of them stay near 8 MB
const kept = new TeamPages('compare', 200);
const keyOf = (selection: Selection, maxPoints: number) => fingerprint({ selection, maxPoints });

/** Forget the team's kept comparisons (a baseline set, an experiment extended). */
export function forgetTeamComparisons(teamId: string): void {
  kept.forget(teamId);
}

/**
 * The compare view as compressed bytes, outside tRPC: what `compare.get` sends, through its output
 * schema once per version instead of on every request. The team's reads (the groups, the
 * baselines, the runs' states) decide the version, so another team's runs are NOT_FOUND; a
 * comparison a team's request got within the bound skips them. The key is the comparison's
 * version (see `groupsVersion`) and the baselines shown.
 */
export async function comparePageBytes(
  db: Db,
  teamId: string,
  selection: Selection,
  maxPoints: number,
): Promise<PageBytes> {
  return kept.bytes(
    teamId,
    keyOf(selection, maxPoints),
    async () => {
      const resolved = await resolveBaseline(db, teamId, selection);
      const { version, cacheable } = await comparisonVersion(db, teamId, selection, {
        maxPoints,
        baselineIndex: resolved.baselineIndex,
        groups: resolved.groups,
      });
      return {
        etag: `"${fingerprint({ version, baselines: baselinesOf(resolved.saved) })}"`,
        finished: cacheable,
        render: async () =>
          ComparisonViewSchema.parse(await compareView(db, teamId, selection, maxPoints, resolved)),
      };
    },
    { skipReadsWhenRecent: true },
  );
}

/** The compare page's data, `/api/compare/data?items=…&maxPoints=`, for its route and the fast path. */
export const COMPARE_PAGE_DATA: PageData<Selection> = {
  notFound: 'comparison not found',
  ask(_, q) {
    const { selection, error } = parseSelectionQuery(q);
    if (!selection) return { error };
    const maxPoints = pointsOf(q, COMPARE_DATA_DEFAULT_POINTS, COMPARE_DATA_MAX_POINTS);
    return typeof maxPoints === 'number' ? { key: selection, maxPoints } : maxPoints;
  },
  read: (db, teamId, a) => comparePageBytes(db, teamId, a.key, a.maxPoints),
  recent: (teamId, a) => kept.recentPage(teamId, keyOf(a.key, a.maxPoints)),
};
