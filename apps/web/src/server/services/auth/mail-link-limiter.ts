import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { WindowCounters } from '../../security/window-counters';

export interface MailLinkLimits {
  /** links one address may be sent per `addressWindowSeconds` (reset links and verification links) */
  perAddress: number;
  addressWindowSeconds: number;
  /** links the installation sends per minute, to everyone together */
  perInstallationPerMinute: number;
}

export const MAIL_LINK_LIMITS: MailLinkLimits = {
  perAddress: 3,
  addressWindowSeconds: 900,
  perInstallationPerMinute: 60,
};

/**
 * Password reset and verification links are mail PoolBench sends to an address someone typed:
 * counted per address (so nobody can flood an inbox, or use up the links of anyone else's
 * address) and per installation (so the mail server is not a tool for spam). Better Auth's own
 * limit on these routes is one bucket per client address, and without trusted proxies one bucket
 * for everyone: three links a minute for the whole installation, which one person could hold.
 * The answer is the same whether or not the address has an account.
 */
export class MailLinkLimiter {
  private readonly addresses: WindowCounters;
  private readonly installation: WindowCounters;

  constructor(
    redis: (() => Redis) | null,
    private readonly limits: MailLinkLimits = MAIL_LINK_LIMITS,
    private readonly prefix = 'pb:mail-links',
  ) {
    this.addresses = new WindowCounters(redis, limits.addressWindowSeconds);
    this.installation = new WindowCounters(redis, 60);
  }

  /** Counts one link; null when it may be sent, else the seconds to wait. */
  async admit(email: string): Promise<number | null> {
    const key = createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
    if ((await this.addresses.incr(`${this.prefix}:addr:${key}`)) > this.limits.perAddress)
      return this.limits.addressWindowSeconds;
    if ((await this.installation.incr(`${this.prefix}:all`)) > this.limits.perInstallationPerMinute)
      return 60;
    return null;
  }
}
