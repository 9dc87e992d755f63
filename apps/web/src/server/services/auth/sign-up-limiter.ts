import type { Redis } from 'ioredis';
import { WindowCounters } from '../../security/window-counters';

export interface SignUpLimits {
  /** sign-up attempts the whole installation takes per minute, from everyone together */
  perInstallationPerMinute: number;
  /** sign-up attempts one (trusted) client may make per `clientWindowSeconds` */
  perClient: number;
  clientWindowSeconds: number;
}

export const SIGN_UP_LIMITS: SignUpLimits = {
  perInstallationPerMinute: 10,
  perClient: 5,
  clientWindowSeconds: 600,
};

/**
 * Every account is the admin of a team of its own, so accounts are what abuse is bought with:
 * sign-ups are counted per installation (always) and per client (when a trusted proxy vouches
 * for its address, as for sign-ins). An attempt past either budget is refused with the seconds
 * until the budget's window ends. Counted in Redis, in memory while Redis is unreachable.
 */
export class SignUpLimiter {
  private readonly installation: WindowCounters;
  private readonly clients: WindowCounters;

  constructor(
    redis: (() => Redis) | null,
    private readonly limits: SignUpLimits = SIGN_UP_LIMITS,
    private readonly prefix = 'pb:sign-up',
    /** the clock the windows run on while Redis is unreachable (Redis expires its own) */
    now: () => number = Date.now,
  ) {
    this.installation = new WindowCounters(redis, 60, now);
    this.clients = new WindowCounters(redis, limits.clientWindowSeconds, now);
  }

  /** Counts one attempt; null when it may go ahead, else the seconds to wait. */
  async admit(client: string | null): Promise<number | null> {
    if (client !== null) {
      const own = await this.clients.incr(`${this.prefix}:ip:${client}`);
      if (own > this.limits.perClient) return this.limits.clientWindowSeconds;
    }
    const all = await this.installation.incr(`${this.prefix}:all`);
    return all > this.limits.perInstallationPerMinute ? 60 : null;
  }
}
