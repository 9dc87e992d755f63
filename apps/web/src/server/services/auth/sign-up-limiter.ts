import type { Redis } from 'ioredis';
import { BudgetLimiter } from '../../security/budget-limiter';

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
export class SignUpLimiter extends BudgetLimiter {
  constructor(
    redis: (() => Redis) | null,
    limits: SignUpLimits = SIGN_UP_LIMITS,
    prefix = 'pb:sign-up',
    /** the clock the windows run on while Redis is unreachable (Redis expires its own) */
    now: () => number = Date.now,
  ) {
    const { perClient: perKey, clientWindowSeconds: keyWindowSeconds } = limits;
    super(redis, { ...limits, perKey, keyWindowSeconds }, prefix, 'ip', now);
  }

  /** Counts one attempt; null when it may go ahead, else the seconds to wait. */
  admit(client: string | null): Promise<number | null> {
    return this.admitKey(client);
  }
}
