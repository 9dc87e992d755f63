import type { Redis } from 'ioredis';
import type { HeaderReader } from '../cache/finished-data-cache';
import { WindowCounters } from '../../security/window-counters';

/** Failed token lookups one client may make per window before it gets 429 (only behind trusted proxies). */
export const GUESS_LIMIT = 20;
/** Failed token lookups of everyone together per window; past it, unknown tokens answer 429. */
export const GLOBAL_GUESS_LIMIT = 500;
export const GUESS_WINDOW_SECONDS = 600;

/**
 * Rate limit on guessing share tokens. Only failed lookups (unknown, revoked or expired tokens)
 * count, so a legitimate viewer reloading a page is never limited. Two budgets per window:
 *
 * - per client, only when the client address can be trusted (`proxyHops` > 0: the entry your own
 *   proxy appended). Past it, that client gets 429 for every token, valid ones included: it can
 *   only lock itself out.
 * - global, for misses of everyone together. Past it, unknown tokens answer 429 but valid links
 *   keep working, so nobody can lock other viewers out, with forged headers or otherwise.
 *
 * Without trusted proxies (`proxyHops` 0) there is no trustworthy per-client address: Next.js
 * (16, `base-server.js`) keeps a client-sent X-Forwarded-For and fills in the socket address only
 * when there is none, and route handlers cannot read the socket. Keying on that header let a
 * client rotate it to dodge the limit, or forge a victim's address to get the victim's valid link
 * answered 429. So then only the global budget applies. Tokens are 256-bit random: the limit is a
 * brake on noise, never what keeps a link private.
 *
 * Counted in Redis (shared by every web process); if Redis is unreachable, in this process's
 * memory, which still brakes a single instance.
 */
export class GuessLimiter {
  constructor(
    redis: (() => Redis) | null,
    private readonly limit = GUESS_LIMIT,
    private readonly windowSeconds = GUESS_WINDOW_SECONDS,
    private readonly prefix = 'pb:share-guess',
    private readonly proxyHops = 0,
    private readonly globalLimit = GLOBAL_GUESS_LIMIT,
  ) {
    this.counters = new WindowCounters(redis, windowSeconds);
  }

  private readonly counters: WindowCounters;

  /** The client's address if a trusted proxy vouches for it, else null (see the class comment). */
  clientKey(headers: HeaderReader): string | null {
    return this.proxyHops > 0 ? clientIp(headers, this.proxyHops) : null;
  }

  private clientCounter(client: string) {
    return `${this.prefix}:ip:${client}`;
  }

  private globalCounter() {
    return `${this.prefix}:global`;
  }

  /** True when this (trusted) client used up its own budget; an unknown client is never blocked here. */
  async blocked(client: string | null): Promise<boolean> {
    if (client === null) return false;
    return (await this.counters.read(this.clientCounter(client))) >= this.limit;
  }

  /**
   * Counts one failed lookup against the client (if known) and the global budget; returns which
   * budget, if any, is now exceeded, so the miss is answered 429 instead of 404.
   */
  async recordFailure(client: string | null): Promise<'client' | 'global' | null> {
    const global = await this.counters.incr(this.globalCounter());
    const own = client === null ? 0 : await this.counters.incr(this.clientCounter(client));
    if (client !== null && own > this.limit) return 'client';
    return global > this.globalLimit ? 'global' : null;
  }
}

/**
 * The client address behind `proxyHops` trusted reverse proxies (env `TRUSTED_PROXY_HOPS`): each
 * appends the address it saw to X-Forwarded-For, so the client is the entry `proxyHops` from the
 * end and everything before it is whatever the client sent (rotating it must not dodge the limit).
 * Only meaningful with `proxyHops` >= 1; with none the header is the client's own word.
 */
export function clientIp(headers: HeaderReader, proxyHops = 0): string {
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const fromForwarded =
    entries.length === 0
      ? undefined
      : entries[Math.max(0, entries.length - Math.max(1, proxyHops))];
  return (fromForwarded || headers.get('x-real-ip') || 'direct').slice(0, 64);
}
