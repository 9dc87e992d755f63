import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '../errors';

export interface ScriptCheckLimits {
  /** checks one team may have running at once */
  perTeam: number;
  /** checks the whole installation (every web process) may have running at once */
  perInstallation: number;
  /** a slot not given back within this long (its web process died) is free again */
  staleAfterMs: number;
}

/**
 * Each check runs k6 twice in the sandbox (up to 512 MiB and 60 s each), so the web host's memory
 * is what a check costs: 2 per team and 4 for the installation by default.
 */
export const SCRIPT_CHECK_LIMITS: ScriptCheckLimits = {
  perTeam: 2,
  perInstallation: 4,
  staleAfterMs: 180_000,
};

/** Seconds a refused check is told to wait: about one check's length. */
const RETRY_AFTER_S = 15;

// KEYS: the team's set, the installation's set. ARGV: now, stale-before, id, team max, all max, ttl.
const ACQUIRE_LUA = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return 0
`;

const local = new Map<string, Map<string, number>>();

/**
 * Slots for script checks, held in Redis (shared by every web process) as sorted sets of running
 * checks by start time, so a slot whose web process died frees itself after `staleAfterMs`.
 * While Redis is unreachable the same rule holds in this process's memory. A check past a limit
 * is refused with `rate_limited` and a Retry-After, never queued on the web host.
 */
export class ScriptCheckSlots {
  constructor(
    private readonly redis: (() => Redis) | null,
    private readonly limits: ScriptCheckLimits = SCRIPT_CHECK_LIMITS,
    private readonly prefix = 'pb:script-checks',
    /** the clock slots are dated and judged stale by (a test moves it) */
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a slot for the team, or throws `rate_limited`; the returned function gives it back. */
  async acquire(teamId: string): Promise<() => Promise<void>> {
    const keys = [`${this.prefix}:team:${teamId}`, `${this.prefix}:all`] as const;
    const id = randomUUID();
    const now = this.now();
    const stale = now - this.limits.staleAfterMs;
    let verdict: number;
    let release: () => Promise<void>;
    try {
      if (!this.redis) throw new Error('no redis');
      const r = this.redis();
      verdict = Number(
        await r.eval(
          ACQUIRE_LUA,
          2,
          ...keys,
          now,
          stale,
          id,
          this.limits.perTeam,
          this.limits.perInstallation,
          this.limits.staleAfterMs,
        ),
      );
      release = async () => {
        await r
          .multi()
          .zrem(keys[0], id)
          .zrem(keys[1], id)
          .exec()
          .catch(() => undefined);
      };
    } catch {
      const sets = keys.map((k) => {
        const m = local.get(k) ?? new Map<string, number>();
        local.set(k, m);
        for (const [x, at] of m) if (at <= stale) m.delete(x);
        return m;
      });
      verdict =
        sets[0]!.size >= this.limits.perTeam
          ? 1
          : sets[1]!.size >= this.limits.perInstallation
            ? 2
            : 0;
      if (verdict === 0) for (const m of sets) m.set(id, now);
      release = async () => {
        for (const m of sets) m.delete(id);
      };
    }
    if (verdict === 1)
      throw new AppError(
        'rate_limited',
        `this team already has ${this.limits.perTeam} k6 scripts being checked; try again when they are done`,
        { headers: { 'retry-after': String(RETRY_AFTER_S) } },
      );
    if (verdict === 2)
      throw new AppError(
        'rate_limited',
        `this server is checking ${this.limits.perInstallation} k6 scripts already; try again in a few seconds`,
        { headers: { 'retry-after': String(RETRY_AFTER_S) } },
      );
    return release;
  }
}
