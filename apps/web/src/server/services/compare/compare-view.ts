import { gzipSync } from 'node:zlib';
import type { Db } from '@poolbench/db';
import type { Selection } from '~/lib/compare/selection';
import { fastSuperjson } from '../../api/fast-transformer';
import { ComparisonViewSchema } from '../../api/routers/compare.types';
import { fingerprint, LruCache, RecentPages } from '../cache/finished-data-cache';
import { processWide } from '../../process-wide';
import { keptAnswerMs, onRevocation } from '../auth/auth-cache';
import type { PageBytes } from '../cache/page-bytes-response';
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
const pages = processWide('compare-pages', () => new LruCache<PageBytes>(200));

/**
 * A selection's finished comparison for at most `AUTH_CACHE_MAX_MS`: views arriving meanwhile
 * skip the reads that decide its version. A mutation of the team's data (a baseline set, an
 * experiment extended) forgets the team's entries at once, in every web process
 * (`forgetAuth({ teamId })` in `teamProcedure`); changes made by workers show within the bound.
 */
const recent = processWide('compare-recent', () => new RecentPages(1000));
export function forgetTeamComparisons(teamId: string): void {
  recent.forget(teamId);
}
onRevocation('comparisons', (r) => {
  if (r.teamId) forgetTeamComparisons(r.teamId);
});
const recentKey = (teamId: string, selection: Selection, maxPoints: number) =>
  `${teamId}\u0000${fingerprint({ selection, maxPoints })}`;

/**
 * For server.mjs's fast path: the team's finished comparison of this selection that a request got
 * within the bound, if any (in the bound's last quarter not to a request sent to renew it).
 */
export function recentComparePage(
  teamId: string,
  selection: Selection,
  maxPoints: number,
): PageBytes | undefined {
  const seen = recent.getOrSendToRenew(recentKey(teamId, selection, maxPoints));
  return seen ? pages.get(seen.etag) : undefined;
}

/**
 * The compare view as compressed bytes, outside tRPC: what `compare.get` sends, through its output
 * schema once per version instead of on every request. The team's reads (the groups, the
 * baselines, the runs' states) run on every call first, so another team's runs are NOT_FOUND
 * however warm the cache is; the key is the comparison's version (see `groupsVersion`) and the
 * baselines shown.
 */
export async function comparePageBytes(
  db: Db,
  teamId: string,
  selection: Selection,
  maxPoints: number,
): Promise<PageBytes> {
  const ticket = recent.ticket();
  const seen = recent.get(recentKey(teamId, selection, maxPoints), ticket.at);
  const kept = seen ? pages.get(seen.etag) : undefined;
  if (kept) return kept;
  const resolved = await resolveBaseline(db, teamId, selection);
  const { version, cacheable } = await comparisonVersion(db, teamId, selection, {
    maxPoints,
    baselineIndex: resolved.baselineIndex,
    groups: resolved.groups,
  });
  const etag = `"${fingerprint({ version, baselines: baselinesOf(resolved.saved) })}"`;
  const remember = () =>
    recent.remember(
      recentKey(teamId, selection, maxPoints),
      teamId,
      etag,
      ticket,
      ticket.at + keptAnswerMs(),
    );
  const hit = cacheable ? pages.get(etag) : undefined;
  if (hit) {
    remember();
    return hit;
  }
  const view = ComparisonViewSchema.parse(
    await compareView(db, teamId, selection, maxPoints, resolved),
  );
  const bytes = {
    etag,
    gzip: gzipSync(JSON.stringify(fastSuperjson.serialize(view))),
    finished: cacheable,
  };
  if (cacheable) {
    pages.set(etag, bytes);
    remember();
  }
  return bytes;
}
