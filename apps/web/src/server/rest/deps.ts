import type { Db } from '@poolbench/db';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Revocation } from '~/server/services/auth/auth-cache';
import type { IdempotencyOptions } from './idempotency';

/** Everything the REST layer touches; the route passes the app's singletons, tests their own. */
export interface RestDeps {
  db: Db;
  redis: () => Redis;
  queue: () => Queue;
  /** absolute origin for links in responses, e.g. http://localhost:3000 */
  baseUrl: string;
  rateLimit: { limit: number; windowMs: number };
  /** the clock the per-token rate limit's windows run on; default Date.now (a test moves it) */
  now?: () => number;
  idempotency?: IdempotencyOptions;
  /**
   * After a change a token made (anything but GET): what web processes keep about its team's
   * results (recent run pages and comparisons) is forgotten, as after a tRPC mutation.
   */
  forgetAuth?: (revocation: Revocation) => Promise<void>;
}

export const DEFAULT_RATE_LIMIT = { limit: 300, windowMs: 60_000 };
