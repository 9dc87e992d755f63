import type { Redis } from 'ioredis';

/** Failed token lookups one address may make per window before it gets 429. */
export const GUESS_LIMIT = 20;
export const GUESS_WINDOW_SECONDS = 600;

const memory = new Map<string, { count: number; resetAt: number }>();

/**
 * Rate limit on guessing share tokens, per client IP: only failed lookups (unknown, revoked or
 * expired tokens) count, so a legitimate viewer reloading a page is never limited. Counted in
 * Redis (shared by every web process); if Redis is unreachable, in this process's memory, which
 * still stops a single client hammering one instance.
 */
export class GuessLimiter {
  constructor(
    private readonly redis: (() => Redis) | null,
    private readonly limit = GUESS_LIMIT,
    private readonly windowSeconds = GUESS_WINDOW_SECONDS,
    private readonly prefix = 'pb:share-guess',
    private readonly proxyHops = 0,
  ) {}

  /** The caller's address, given how many trusted proxies stand in front of the app (see `clientIp`). */
  clientIp(headers: Headers): string {
    return clientIp(headers, this.proxyHops);
  }

  private key(ip: string) {
    return `${this.prefix}:${ip}`;
  }

  async blocked(ip: string): Promise<boolean> {
    try {
      if (this.redis) return Number((await this.redis().get(this.key(ip))) ?? 0) >= this.limit;
    } catch {
      // fall through to memory
    }
    const m = memory.get(this.key(ip));
    return !!m && m.resetAt > Date.now() && m.count >= this.limit;
  }

  async recordFailure(ip: string): Promise<void> {
    try {
      if (this.redis) {
        const r = this.redis();
        const n = await r.incr(this.key(ip));
        if (n === 1) await r.expire(this.key(ip), this.windowSeconds);
        return;
      }
    } catch {
      // fall through to memory
    }
    const k = this.key(ip);
    const m = memory.get(k);
    if (!m || m.resetAt <= Date.now()) memory.set(k, { count: 1, resetAt: Date.now() + this.windowSeconds * 1000 });
    else m.count++;
  }
}

/**
 * The client address for rate limiting. `proxyHops` is how many reverse proxies of yours stand in
 * front of the app (env `TRUSTED_PROXY_HOPS`); each appends the address it saw to X-Forwarded-For,
 * so the client is the entry `proxyHops` from the end and everything before it is whatever the
 * client sent (rotating it must not dodge the limit). With no proxy (0), Next.js fills
 * X-Forwarded-For with the socket address only when the request has none, so the last entry is
 * the best there is: a client can forge it, which is why share tokens are 256-bit random and the
 * limit is only a brake on noise, never what keeps a link private.
 */
export function clientIp(headers: Headers, proxyHops = 0): string {
  const entries = (headers.get('x-forwarded-for') ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  const fromForwarded = entries.length === 0 ? undefined : entries[Math.max(0, entries.length - Math.max(1, proxyHops))];
  return (fromForwarded || headers.get('x-real-ip') || 'direct').slice(0, 64);
}
