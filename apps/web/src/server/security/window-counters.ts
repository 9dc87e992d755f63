import type { Redis } from 'ioredis';

const memory = new Map<string, { count: number; resetAt: number }>();

/**
 * Counters that reset `windowSeconds` after their first count: in Redis (shared by every web
 * process, by Redis's own expiry), or, while Redis is unreachable, in this process's memory by the
 * clock `now`, which still brakes a single instance. The rate limits of sign-in and of share-link
 * guessing count with these.
 */
export class WindowCounters {
  constructor(
    private readonly redis: (() => Redis) | null,
    private readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async read(key: string): Promise<number> {
    try {
      if (this.redis) return Number((await this.redis().get(key)) ?? 0);
    } catch {
      // fall through to memory
    }
    const m = memory.get(key);
    return m && m.resetAt > this.now() ? m.count : 0;
  }

  async incr(key: string): Promise<number> {
    try {
      if (this.redis) {
        const r = this.redis();
        const n = await r.incr(key);
        if (n === 1) await r.expire(key, this.windowSeconds);
        return n;
      }
    } catch {
      // fall through to memory
    }
    const m = memory.get(key);
    const now = this.now();
    if (!m || m.resetAt <= now) {
      memory.set(key, { count: 1, resetAt: now + this.windowSeconds * 1000 });
      return 1;
    }
    return ++m.count;
  }

  async clear(...keys: string[]): Promise<void> {
    for (const k of keys) memory.delete(k);
    try {
      if (this.redis) await this.redis().del(...keys);
    } catch {
      // counters expire with the window
    }
  }
}
