import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { BudgetLimiter } from '../../security/budget-limiter';

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
export class MailLinkLimiter extends BudgetLimiter {
  constructor(
    redis: (() => Redis) | null,
    limits: MailLinkLimits = MAIL_LINK_LIMITS,
    prefix = 'pb:mail-links',
  ) {
    const { perAddress: perKey, addressWindowSeconds: keyWindowSeconds } = limits;
    super(redis, { ...limits, perKey, keyWindowSeconds }, prefix, 'addr');
  }

  /** Counts one link; null when it may be sent, else the seconds to wait. */
  admit(email: string): Promise<number | null> {
    return this.admitKey(
      createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32),
    );
  }
}
