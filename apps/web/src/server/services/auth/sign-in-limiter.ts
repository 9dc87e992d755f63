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
}

export const SIGN_IN_LIMITS: SignInLimits = {
  perAccountClient: 5,
  perClient: 30,
  freeAccountFailures: 5,
  baseDelayMs: 500,
  maxDelayMs: 4000,
  windowSeconds: 900,
};

export interface SignInVerdict {
  /** seconds until this client may try again; null when it may try now */
  retryAfterSeconds: number | null;
  /** how long to wait before checking the password (failures on the account by anyone) */
  delayMs: number;
}

/**
 * Limits password guessing so that nobody can lock anyone else out:
 *
 * - A client is refused (429) only for budgets it used up itself: failures on one account, or on
 *   all accounts together. A client is its address as vouched for by your own proxies
 *   (`proxyHops` > 0, the rule of the share links); addresses before that entry in
 *   X-Forwarded-For are the client's own word and are ignored, so rotating or forging them
 *   neither dodges a limit nor charges it to someone else.
 * - Failures on an account by everyone together never refuse anything: past
 *   `freeAccountFailures` every sign-in on that account waits a delay that doubles per failure up
 *   to `maxDelayMs`, then the password is checked. The real user with the right password gets in,
 *   only slower, however many guesses others made.
 *
 * Without trusted proxies there is no per-client budget (no trustworthy address: Next.js keeps a
 * client-sent X-Forwarded-For and route handlers cannot read the socket); only the delay applies.
 * A success clears the account's and that client's failures. Counted in Redis, in this process's
 * memory if Redis is unreachable.
 */
export class SignInLimiter {
  constructor(
    redis: (() => Redis) | null,
    private readonly proxyHops = 0,
    private readonly limits: SignInLimits = SIGN_IN_LIMITS,
    private readonly prefix = 'pb:sign-in',
  ) {
    this.counters = new WindowCounters(redis, limits.windowSeconds);
  }

  private readonly counters: WindowCounters;

  /** The client's address if a trusted proxy vouches for it, else null. */
  clientKey(headers: Headers): string | null {
    return this.proxyHops > 0 ? clientIp(headers, this.proxyHops) : null;
  }

  async check(email: string, client: string | null): Promise<SignInVerdict> {
    const account = accountKey(email);
    const accountFailures = await this.counters.read(`${this.prefix}:acct:${account}`);
    const over = accountFailures - this.limits.freeAccountFailures;
    const delayMs =
      over <= 0 ? 0 : Math.min(this.limits.maxDelayMs, this.limits.baseDelayMs * 2 ** (over - 1));
    if (client !== null) {
      const own = await this.counters.read(`${this.prefix}:acct:${account}:ip:${client}`);
      const all = await this.counters.read(`${this.prefix}:ip:${client}`);
      if (own >= this.limits.perAccountClient || all >= this.limits.perClient) {
        return { retryAfterSeconds: this.limits.windowSeconds, delayMs: 0 };
      }
    }
    return { retryAfterSeconds: null, delayMs };
  }

  async recordFailure(email: string, client: string | null): Promise<void> {
    const account = accountKey(email);
    await this.counters.incr(`${this.prefix}:acct:${account}`);
    if (client === null) return;
    await this.counters.incr(`${this.prefix}:acct:${account}:ip:${client}`);
    await this.counters.incr(`${this.prefix}:ip:${client}`);
  }

  async recordSuccess(email: string, client: string | null): Promise<void> {
    const account = accountKey(email);
    const keys = [`${this.prefix}:acct:${account}`];
    if (client !== null) keys.push(`${this.prefix}:acct:${account}:ip:${client}`);
    await this.counters.clear(...keys);
  }
}

/** Emails are case-insensitive here as in Better Auth; hashed so keys carry no address. */
function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}
