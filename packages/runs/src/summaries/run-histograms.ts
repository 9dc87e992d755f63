import type { Db } from '@poolbench/db';
import type { Histogram } from '@poolbench/stats';
import { createHistogram } from '@poolbench/stats';
import { mergeStoredHistograms } from '@poolbench/stats/stored';

const MAX_ENTRIES = 256;
// Per process; a finished run's per-second rows never change, so its merged histogram (per window)
// is computed once. Runs still in progress are always read fresh.
const cache = new Map<string, Histogram>();

export function clearHistogramCache() {
  cache.clear();
}

/** Stored per-second histogram columns that can be merged per run. */
export type HistogramColumn = 'durationHist' | 'blockedHist';

/**
 * The merged histogram (request duration by default) of each run over the window: from the cache
 * for finished runs, else from the stored per-second histograms in one query.
 */
export async function runHistograms(
  db: Db,
  runs: Array<{ id: string; finished: boolean }>,
  window: { from: number; to: number } | null,
  column: HistogramColumn = 'durationHist',
): Promise<Map<string, Histogram>> {
  const from = window?.from ?? 0;
  const to = window?.to ?? 2_147_483_647;
  const key = (id: string) => `${id}:${column}:${from}:${to}`;
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
  // the column name comes from the HistogramColumn union above, never from input
  const rows = await db.$queryRawUnsafe<Array<{ runId: string; hist: Uint8Array | null }>>(
    `SELECT "runId", "${column}" AS hist FROM "RunSecond"
      WHERE "runId" = ANY($1::text[]) AND segment = 'all' AND second >= $2 AND second < $3`,
    missing,
    from,
    to,
  );
  const byRun = new Map<string, Uint8Array[]>(missing.map((id) => [id, []]));
  for (const r of rows) if (r.hist) byRun.get(r.runId)?.push(r.hist);
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
