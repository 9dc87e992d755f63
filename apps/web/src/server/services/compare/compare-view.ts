import { gzipSync } from 'node:zlib';
import type { Db } from '@poolbench/db';
import type { Selection } from '~/lib/compare/selection';
import { fastSuperjson } from '../../api/fast-transformer';
import { ComparisonViewSchema } from '../../api/routers/compare.types';
import { fingerprint, LruCache } from '../cache/finished-data-cache';
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

export type ComparePageBytes = PageBytes;

// a comparison of 6 x 15-minute runs is ~40 KB compressed: 200 of them stay near 8 MB
const pages = new LruCache<ComparePageBytes>(200);
export const clearComparePageCache = () => pages.clear();

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
): Promise<ComparePageBytes> {
  const resolved = await resolveBaseline(db, teamId, selection);
  const { version, cacheable } = await comparisonVersion(db, teamId, selection, {
    maxPoints,
    baselineIndex: resolved.baselineIndex,
    groups: resolved.groups,
  });
  const etag = `"${fingerprint({ version, baselines: baselinesOf(resolved.saved) })}"`;
  const hit = cacheable ? pages.get(etag) : undefined;
  if (hit) return hit;
  const view = ComparisonViewSchema.parse(
    await compareView(db, teamId, selection, maxPoints, resolved),
  );
  const bytes = {
    etag,
    gzip: gzipSync(JSON.stringify(fastSuperjson.serialize(view))),
    finished: cacheable,
  };
  if (cacheable) pages.set(etag, bytes);
  return bytes;
}
