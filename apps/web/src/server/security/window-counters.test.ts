import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SignUpLimiter } from '../services/auth/sign-up-limiter';
import { WindowCounters } from './window-counters';

// Without Redis the counters live in this process's memory on the clock they are given.
describe('window counters while Redis is unreachable', () => {
  it('count until windowSeconds after the first count, then start again', async () => {
    let t = 1_000_000;
    const c = new WindowCounters(null, 60, () => t);
    const key = `pbtest-wc-${randomBytes(4).toString('hex')}`;
    expect(await c.incr(key)).toBe(1);
    t += 30_000;
    expect(await c.incr(key)).toBe(2);
    t += 30_000 - 1;
    expect(await c.read(key)).toBe(2);
    expect(await c.incr(key)).toBe(3);
    t += 1;
    expect(await c.read(key)).toBe(0);
    expect(await c.incr(key)).toBe(1);
  });

  it("the sign-up limiter refuses past the installation's minute and admits again when it ends", async () => {
    let t = 1_000_000;
    const limiter = new SignUpLimiter(
      null,
      { perInstallationPerMinute: 2, perClient: 1, clientWindowSeconds: 600 },
      `pbtest-sign-up-${randomBytes(4).toString('hex')}`,
      () => t,
    );
    expect(await limiter.admit(null)).toBeNull();
    expect(await limiter.admit(null)).toBeNull();
    expect(await limiter.admit(null)).toBe(60);
    t += 60_000 - 1;
    expect(await limiter.admit(null)).toBe(60);
    t += 1;
    expect(await limiter.admit(null)).toBeNull();
    // a client's own budget lasts its own window
    expect(await limiter.admit('198.51.100.7')).toBeNull();
    t += 600_000 - 1;
    expect(await limiter.admit('198.51.100.7')).toBe(600);
    t += 1;
    expect(await limiter.admit('198.51.100.7')).toBeNull();
  });
});
