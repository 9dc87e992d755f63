import { createHash } from 'node:crypto';

/**
 * `POOLBENCH_PAGE_CACHE=off` turns the caches of finished-run data off (the A/B switch of the
 * pages-under-load benchmark, and a way out if a cache were ever suspected of serving stale data).
 */
export const pageCacheOn = () => process.env.POOLBENCH_PAGE_CACHE !== 'off';

/**
 * A small in-process LRU. It holds data, never decisions: every caller authorizes the request
 * first (the team's run, a valid share token) and only then looks here, under a key that is a
 * fingerprint of everything the data depends on, so anything that can still change (an extended
 * experiment's new runs, retention pruning seconds, a renamed experiment) makes a new key.
 */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key); // most recently used goes last
    this.map.set(key, v);
    return v;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }

  clear(): void {
    this.map.clear();
  }
}

/** A strong ETag / cache key from anything JSON-serialisable (dates as ISO strings). */
export function fingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 32);
}

/** True when an If-None-Match header names this ETag (or `*`); weak validators compare equal. */
export function notModified(headers: Headers, etag: string): boolean {
  const inm = headers.get('if-none-match');
  if (!inm) return false;
  return inm
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}
