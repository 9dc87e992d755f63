import type { Db } from '@poolbench/db';
import type { Histogram } from '@poolbench/stats';
import { createHistogram } from '@poolbench/stats';
import { mergeStoredHistograms } from './fast-hdr';

const MAX_ENTRIES = 256;
// Per process; a finished run's per-second rows never change, so its merged histogram (per window)
// is computed once. Runs still in progress are always read fresh.
const cache = new Map<string, Histogram>();

export function clearHistogramCache() {
  cache.clear();
}

/**
 * The merged duration histogram of each run over the window: from the cache for finished runs,
 * else from the stored per-second histograms in one query.
 */
export async function runHistograms(db: Db, runs: Array<{ id: string; finished: boolean }>, window: { from: number; to: number } | null): Promise<Map<string, Histogram>> {
  const from = window?.from ?? 0;
  const to = window?.to ?? 2_147_483_647;
  const key = (id: string) => `${id}:${from}:${to}`;
  const out = new Map<string, Histogram>();
  const missing: string[] = [];
  for (const r of runs) {
    const hit = r.finished ? cache.get(key(r.id)) : undefined;
    if (hit) {
      cache.delete(key(r.id)); // refresh LRU position
      cache.set(key(r.id), hit);
      out.set(r.id, hit);
    } else missing.push(r.id);
  }
  if (missing.length === 0) return out;
  const rows = await db.$queryRaw<Array<{ runId: string; durationHist: Uint8Array | null }>>`
    SELECT "runId", "durationHist" FROM "RunSecond"
     WHERE "runId" = ANY(${missing}::text[]) AND segment = 'all' AND second >= ${from} AND second < ${to}`;
  const byRun = new Map<string, Uint8Array[]>(missing.map((id) => [id, []]));
  for (const r of rows) if (r.durationHist) byRun.get(r.runId)?.push(r.durationHist);
  for (const [id, hists] of byRun) {
    const h = hists.length ? mergeStoredHistograms(hists) : createHistogram();
    out.set(id, h);
    if (runs.find((r) => r.id === id)?.finished) {
      cache.set(key(id), h);
      if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    }
  }
  return out;
}
