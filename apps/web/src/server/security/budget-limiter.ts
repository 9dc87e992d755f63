import type { Redis } from 'ioredis';
import { WindowCounters } from './window-counters';

/** The two budgets an attempt must fit: its own key's and the whole installation's. */
export interface Budgets {
  /** attempts one key (a client, an address) may make per `keyWindowSeconds` */
  perKey: number;
  keyWindowSeconds: number;
  /** attempts the installation takes per minute, from everyone together */
  perInstallationPerMinute: number;
}

/**
 * Counts an attempt against its key's budget (when it has a key) and then the installation's; an
 * attempt past either is refused with the seconds until that budget's window ends, and one refused
 * by its key's budget does not use the installation's. Counted in Redis, in memory while Redis is
 * unreachable (on `now`'s clock).
 */
export class BudgetLimiter {
  private readonly keys: WindowCounters;
  private readonly installation: WindowCounters;

  constructor(
    redis: (() => Redis) | null,
    private readonly budgets: Budgets,
    /** Redis keys: `<prefix>:<keyKind>:<key>` and `<prefix>:all` */
    private readonly prefix: string,
    private readonly keyKind: string,
    now: () => number = Date.now,
  ) {
    this.keys = new WindowCounters(redis, budgets.keyWindowSeconds, now);
    this.installation = new WindowCounters(redis, 60, now);
  }

  /** Counts one attempt; null when it may go ahead, else the seconds to wait. */
  protected async admitKey(key: string | null): Promise<number | null> {
    if (key !== null) {
      const own = await this.keys.incr(`${this.prefix}:${this.keyKind}:${key}`);
      if (own > this.budgets.perKey) return this.budgets.keyWindowSeconds;
    }
    const all = await this.installation.incr(`${this.prefix}:all`);
    return all > this.budgets.perInstallationPerMinute ? 60 : null;
  }
}
