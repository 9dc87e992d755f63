import { createHash } from 'node:crypto';
import { renewable, useOrSendToRenew, type Renewable } from './renewal';

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

  /** The value kept under `key`, else what `make` answers, kept under it from now on. */
  async getOrMake(key: string, make: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const made = await make();
    this.set(key, made);
    return made;
  }

  clear(): void {
    this.map.clear();
  }
}

/** A strong ETag / cache key from anything JSON-serialisable (dates as ISO strings). */
export function fingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 32);
}

/**
 * What a response is made from, wherever the request came from: a WHATWG `Headers` (route
 * handlers) or a plain lookup over Node's request headers (server.mjs's fast path).
 */
export type HeaderReader = Pick<Headers, 'get'>;

/** True when an If-None-Match header names this ETag (or `*`); weak validators compare equal. */
export function notModified(headers: HeaderReader, etag: string): boolean {
  const inm = headers.get('if-none-match');
  if (!inm) return false;
  return inm
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}

/**
 * Which stored page a request for a key got last, for at most `until` (never more than
 * `AUTH_CACHE_MAX_MS` ahead): requests arriving meanwhile skip the reads that decided it. Each
 * entry names its owner (a team, a share link) so that a change of the owner's data forgets its
 * entries at once. The oldest go first past `max`. A route reads an entry only before its last
 * quarter (`get`), so a request sent to renew it does; server.mjs's fast path until its end, but
 * one request at a time in that quarter goes to the route (`getOrSendToRenew`, renewal.ts).
 */
export class RecentPages {
  private readonly map = new Map<string, { owner: string; etag: string } & Renewable>();
  private readonly deciding = new Map<string, Promise<void>>();
  private generation = 0;
  constructor(private readonly max = 1000) {}

  /**
   * A route deciding this key's page says so, and calls the function returned when it is done,
   * whatever the outcome. Only the first route in flight for a key is recorded.
   */
  decide(key: string): () => void {
    if (this.deciding.has(key)) return () => {};
    let done!: () => void;
    this.deciding.set(
      key,
      new Promise<void>((resolve) => {
        done = resolve;
      }),
    );
    return () => {
      this.deciding.delete(key);
      done();
    };
  }

  /**
   * While nothing is held for this key and a route is deciding it, that route's decision: a cold
   * crowd (a link just posted) then waits for one route instead of each request going the full
   * way behind it. Undefined once an entry is held, also in its renewal quarter.
   */
  decision(key: string, now = Date.now()): Promise<void> | undefined {
    return this.live(key, now) ? undefined : this.deciding.get(key);
  }

  /**
   * Taken before a route's reads that decide a page: `remember` stores nothing if anything was
   * forgotten since (a revocation the reads may predate), and counts the bound from `at`.
   */
  ticket(now = Date.now()): RecentTicket {
    return { generation: this.generation, at: now };
  }

  remember(key: string, owner: string, etag: string, ticket: RecentTicket, until: number): void {
    if (ticket.generation !== this.generation || until <= ticket.at) return;
    this.map.delete(key);
    this.map.set(key, { owner, etag, ...renewable(ticket.at, until) });
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }

  /** The entry for this key before its last quarter. */
  get(key: string, now = Date.now()): { owner: string; etag: string } | undefined {
    const r = this.live(key, now);
    return r && now < r.renewAt ? r : undefined;
  }

  /** The entry for this key until its end, except to a request sent to renew it. */
  getOrSendToRenew(key: string, now = Date.now()): { owner: string; etag: string } | undefined {
    const r = this.live(key, now);
    return r && useOrSendToRenew(r, now) ? r : undefined;
  }

  private live(key: string, now: number) {
    const r = this.map.get(key);
    if (r && r.until <= now) this.map.delete(key);
    return r && r.until > now ? r : undefined;
  }

  /** Forget one key (a route found its page gone). */
  delete(key: string): void {
    this.map.delete(key);
  }

  forget(owner: string): void {
    this.generation++;
    for (const [key, r] of this.map) if (r.owner === owner) this.map.delete(key);
  }
}

export interface RecentTicket {
  generation: number;
  at: number;
}
