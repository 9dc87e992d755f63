import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { clientIp } from '../share-links/rate-limit';
import { WindowCounters } from '../../security/window-counters';

export interface SignInLimits {
  /** failed sign-ins one (trusted) client may make on one account per window before it gets 429 */
  perAccountClient: number;
  /** failed sign-ins one (trusted) client may make on all accounts together per window */
  perClient: number;
  /** failures of everyone on one account per window before its sign-ins are slowed down */
  freeAccountFailures: number;
  /** the first delay past `freeAccountFailures`; it doubles with each further failure */
  baseDelayMs: number;
  maxDelayMs: number;
  windowSeconds: number;
  /**
   * Sign-ins on one account wait their turn: each one's delay starts when the one before it ends.
   * An attempt whose turn would end further than this ahead is refused (429) instead of queued.
   */
  maxQueueMs: number;
}

export const SIGN_IN_LIMITS: SignInLimits = {
  perAccountClient: 5,
  perClient: 30,
  freeAccountFailures: 5,
  baseDelayMs: 500,
  maxDelayMs: 4000,
  windowSeconds: 900,
  maxQueueMs: 60_000,
};

export interface SignInVerdict {
  /** seconds until this client may try again; null when it may try now */
  retryAfterSeconds: number | null;
  /**
   * How long to wait before checking the password: the delay the account's failures ask for,
   * after the attempts already waiting on the account (by anyone) have had theirs.
   */
  delayMs: number;
  /** why the attempt was refused: this client's own budget, or the account's queue being full */
  refusedFor?: 'client' | 'account-queue';
}

/**
 * One atomic step per attempt on an account: count it (every attempt counts as a failure until
 * it succeeds), take the delay its place asks for, and queue it behind the attempts still
 * waiting, so attempts sent at once wait as long in total as the same attempts sent one by one.
 * KEYS: attempts counter, time (ms) the account's queue frees up.
 * ARGV: now ms, free attempts, base delay, max delay, window s, max queue ms.
 * Returns {wait ms, 0} or {-1, ms until the queue frees up}.
 */
const ADMIT_LUA = `
local now = tonumber(ARGV[1])
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
local over = n - tonumber(ARGV[2])
local delay = 0
if over > 0 then delay = math.min(tonumber(ARGV[4]), tonumber(ARGV[3]) * 2 ^ (over - 1)) end
local free = tonumber(redis.call('GET', KEYS[2]) or '0')
local finish = math.max(now, free) + delay
if finish - now > tonumber(ARGV[6]) then return {-1, math.ceil(free - now)} end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('EXPIRE', KEYS[1], ARGV[5]) end
if delay > 0 then redis.call('SET', KEYS[2], math.ceil(finish), 'PX', math.ceil(finish - now) + 1000) end
return {math.ceil(finish - now), 0}
`;

const memoryQueues = new Map<string, { attempts: number; resetAt: number; freeAt: number }>();

/**
 * Limits password guessing so that nobody can lock anyone else out:
 *
 * - A client is refused (429) only for budgets it used up itself: failures on one account, or on
 *   all accounts together. A client is its address as vouched for by your own proxies
 *   (`proxyHops` > 0, the rule of the share links); addresses before that entry in
 *   X-Forwarded-For are the client's own word and are ignored, so rotating or forging them
 *   neither dodges a limit nor charges it to someone else.
 * - Failures on an account by everyone together slow it down: past `freeAccountFailures` every
 *   sign-in on that account waits a delay that doubles per failure up to `maxDelayMs`, then the
 *   password is checked. Attempts sent at once queue: each one's delay starts when the one before
 *   it has ended, so parallel guesses take as long as serial ones; an attempt that would wait
 *   more than `maxQueueMs` behind others is answered 429 with the time the queue frees up. The
 *   real user with the right password gets in once the guesses already queued have had their
 *   turn, only slower, however many guesses others made.
 *
 * Without trusted proxies there is no per-client budget (no trustworthy address: Next.js keeps a
 * client-sent X-Forwarded-For and route handlers cannot read the socket); only the delay applies.
 * A success clears the account's and that client's failures. Counted in Redis, in this process's
 * memory if Redis is unreachable.
 */
export class SignInLimiter {
  constructor(
    private readonly redis: (() => Redis) | null,
    private readonly proxyHops = 0,
    private readonly limits: SignInLimits = SIGN_IN_LIMITS,
    private readonly prefix = 'pb:sign-in',
    /** the clock an account's queue and, without Redis, the windows run on (a test moves it) */
    private readonly now: () => number = Date.now,
  ) {
    this.counters = new WindowCounters(redis, limits.windowSeconds, now);
  }

  private readonly counters: WindowCounters;

  /** The client's address if a trusted proxy vouches for it, else null. */
  clientKey(headers: Headers): string | null {
    return this.proxyHops > 0 ? clientIp(headers, this.proxyHops) : null;
  }

  async check(email: string, client: string | null): Promise<SignInVerdict> {
    const account = accountKey(email);
    if (client !== null) {
      const own = await this.counters.read(`${this.prefix}:acct:${account}:ip:${client}`);
      const all = await this.counters.read(`${this.prefix}:ip:${client}`);
      if (own >= this.limits.perAccountClient || all >= this.limits.perClient) {
        return { retryAfterSeconds: this.limits.windowSeconds, delayMs: 0, refusedFor: 'client' };
      }
    }
    const [wait, busyMs] = await this.admit(account);
    if (wait < 0)
      return {
        retryAfterSeconds: Math.max(1, Math.ceil(busyMs / 1000)),
        delayMs: 0,
        refusedFor: 'account-queue',
      };
    return { retryAfterSeconds: null, delayMs: wait };
  }

  /** ADMIT_LUA in Redis, or the same step in this process's memory while Redis is unreachable. */
  private async admit(account: string): Promise<[number, number]> {
    const l = this.limits;
    const keys = [`${this.prefix}:acct:${account}`, `${this.prefix}:acct:${account}:queue`];
    const now = this.now();
    const args = [now, l.freeAccountFailures, l.baseDelayMs, l.maxDelayMs, l.windowSeconds];
    try {
      if (this.redis) {
        const r = (await this.redis().eval(ADMIT_LUA, 2, ...keys, ...args, l.maxQueueMs)) as [
          number,
          number,
        ];
        return [Number(r[0]), Number(r[1])];
      }
    } catch {
      // fall through to memory
    }
    let q = memoryQueues.get(keys[0]!);
    if (!q || q.resetAt <= now) {
      q = { attempts: 0, resetAt: now + l.windowSeconds * 1000, freeAt: q?.freeAt ?? 0 };
      memoryQueues.set(keys[0]!, q);
    }
    const over = q.attempts - l.freeAccountFailures;
    const delay = over <= 0 ? 0 : Math.min(l.maxDelayMs, l.baseDelayMs * 2 ** (over - 1));
    const finish = Math.max(now, q.freeAt) + delay;
    if (finish - now > l.maxQueueMs) return [-1, q.freeAt - now];
    q.attempts++;
    if (delay > 0) q.freeAt = finish;
    return [finish - now, 0];
  }

  /** The attempt was counted on the account when admitted; this charges the client's budgets. */
  async recordFailure(email: string, client: string | null): Promise<void> {
    const account = accountKey(email);
    if (client === null) return;
    await this.counters.incr(`${this.prefix}:acct:${account}:ip:${client}`);
    await this.counters.incr(`${this.prefix}:ip:${client}`);
  }

  async recordSuccess(email: string, client: string | null): Promise<void> {
    const account = accountKey(email);
    memoryQueues.delete(`${this.prefix}:acct:${account}`);
    const keys = [`${this.prefix}:acct:${account}`];
    if (client !== null) keys.push(`${this.prefix}:acct:${account}:ip:${client}`);
    await this.counters.clear(...keys);
  }
}

/** Emails are case-insensitive here as in Better Auth; hashed so keys carry no address. */
function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}
