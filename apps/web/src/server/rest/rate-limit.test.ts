import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { producerConnection } from '@poolbench/queue';
import { rateLimit } from './rate-limit';

const redis = producerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');

/** The REST API's per-token window on real Redis, on a clock the test moves. */
describe('per-token rate limit', () => {
  afterAll(() => redis.disconnect());

  it('allows `limit` requests per fixed window and the next one from the window edge on', async () => {
    const key = `pbtest-${randomBytes(4).toString('hex')}`;
    const windowMs = 60_000;
    // the start of a window, an hour ago (keys of a window no other test uses)
    const start = (Math.floor(Date.now() / windowMs) - 60) * windowMs;
    const at = (t: number) => rateLimit(redis, key, 3, windowMs, t);
    expect(await at(start)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSec: 60 });
    expect(await at(start + 1)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await at(start + 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await at(start + 3)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSec: 60 });
    expect(await at(start + windowMs - 1)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetSec: 1,
    });
    expect(await at(start + windowMs)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetSec: 60,
    });
  });
});
