import { describe, expect, it } from 'vitest';
import { AUTH_CACHE_MAX_MS, AuthCache, authCacheMs } from './auth-cache';
import { RENEW_RETRY_MS } from '../cache/renewal';

const clock = () => {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

const owner = (v: { user: string; session: string }) => ({
  userId: v.user,
  sessionId: v.session,
});

describe('AuthCache', () => {
  it('answers from memory for less than the bound, and asks again from the bound on', async () => {
    const c = clock();
    const cache = new AuthCache<{ user: string; session: string }>(2000, 100, c.now);
    let loads = 0;
    const load = () => Promise.resolve({ user: 'u1', session: `s${++loads}` });
    expect((await cache.get('k', load, owner)).session).toBe('s1');
    c.advance(1999);
    expect((await cache.get('k', load, owner)).session).toBe('s1');
    c.advance(1);
    expect((await cache.get('k', load, owner)).session).toBe('s2');
  });

  it('counts the bound from when the load started, not when it answered', async () => {
    const c = clock();
    const cache = new AuthCache<{ user: string; session: string }>(2000, 100, c.now);
    let loads = 0;
    await cache.get(
      'k',
      async () => {
        c.advance(1500); // a slow database: the answer is already 1.5 s old
        return { user: 'u', session: `s${++loads}` };
      },
      owner,
    );
    c.advance(500);
    const again = await cache.get(
      'k',
      () => Promise.resolve({ user: 'u', session: 'fresh' }),
      owner,
    );
    expect(again.session).toBe('fresh');
  });

  it('forgets a user or a session at once, and nothing else', async () => {
    const cache = new AuthCache<{ user: string; session: string }>(2000);
    let n = 0;
    const load = (user: string, session: string) => () =>
      Promise.resolve({ user, session: `${session}#${++n}` });
    await cache.get('a', load('u1', 's1'), owner);
    await cache.get('b', load('u1', 's2'), owner);
    await cache.get('c', load('u2', 's3'), owner);
    cache.forget({ userId: 'u1' });
    expect((await cache.get('a', load('u1', 's1'), owner)).session).toBe('s1#4');
    expect((await cache.get('c', load('u2', 's3'), owner)).session).toBe('s3#3');
    cache.forget({ sessionId: 's3#3' });
    expect((await cache.get('c', load('u2', 's3'), owner)).session).toBe('s3#5');
    expect((await cache.get('a', load('u1', 's1'), owner)).session).toBe('s1#4');
  });

  it('does not keep an answer whose load began before a revocation', async () => {
    const cache = new AuthCache<{ user: string; session: string }>(2000);
    let release!: () => void;
    const slow = cache.get(
      'k',
      () => new Promise((r) => (release = () => r({ user: 'u', session: 'before' }))),
      owner,
    );
    cache.forget({ userId: 'u' });
    release();
    expect((await slow).session).toBe('before'); // the caller that asked before still gets it
    const next = await cache.get(
      'k',
      () => Promise.resolve({ user: 'u', session: 'after' }),
      owner,
    );
    expect(next.session).toBe('after');
  });

  it('keeps an answer loaded across a revocation of someone else, and renews it in flight', async () => {
    const c = clock();
    const cache = new AuthCache<{ user: string; session: string }>(2000, 100, c.now);
    const slow = (user: string, session: string) => {
      let release!: () => void;
      const p = new Promise<{ user: string; session: string }>(
        (r) => (release = () => r({ user, session })),
      );
      return { load: () => p, release };
    };
    const v = slow('v', 'sv');
    const u = slow('u', 'su');
    const gv = cache.get('kv', v.load, owner);
    const gu = cache.get('ku', u.load, owner);
    cache.forget({ userId: 'u' }); // u is removed from a team while both loads run
    v.release();
    u.release();
    await Promise.all([gv, gu]);
    expect(cache.peek('kv')?.session).toBe('sv'); // v's answer is not about u: kept
    expect(cache.peek('ku')).toBeUndefined(); // u's may predate the removal: not kept
    // a background renewal in flight during another user's revocation still renews
    c.advance(1600); // the last quarter
    const renewal = slow('v', 'sv2');
    expect((await cache.get('kv', renewal.load, owner)).session).toBe('sv');
    cache.forget({ sessionId: 'someone-else' });
    renewal.release();
    await renewal.load();
    await new Promise((r) => setTimeout(r, 0));
    c.advance(500); // past the first answer's bound: only the renewal answers now
    expect(cache.peek('kv')?.session).toBe('sv2');
  });

  it('shares one load between concurrent misses of a key', async () => {
    const cache = new AuthCache<{ user: string; session: string }>(2000);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 10));
      return { user: 'u', session: 's' };
    };
    await Promise.all(Array.from({ length: 20 }, () => cache.get('k', load, owner)));
    expect(loads).toBe(1);
  });

  it('holds at most max answers, dropping the oldest; a bound of 0 caches nothing', async () => {
    const small = new AuthCache<{ user: string; session: string }>(2000, 3);
    for (const k of ['a', 'b', 'c', 'd'])
      await small.get(k, () => Promise.resolve({ user: k, session: k }), owner);
    expect(small.size).toBe(3);
    let loads = 0;
    await small.get('a', () => Promise.resolve({ user: 'a', session: `a${++loads}` }), owner);
    expect(loads).toBe(1);

    const off = new AuthCache<{ user: string; session: string }>(0);
    let offLoads = 0;
    for (let i = 0; i < 3; i++)
      await off.get('k', () => Promise.resolve({ user: 'u', session: `${++offLoads}` }), owner);
    expect(offLoads).toBe(3);
    expect(off.size).toBe(0);
  });

  it('a failed load is not cached', async () => {
    const cache = new AuthCache<{ user: string; session: string }>(2000);
    await expect(cache.get('k', () => Promise.reject(new Error('db down')), owner)).rejects.toThrow(
      'db down',
    );
    const ok = await cache.get('k', () => Promise.resolve({ user: 'u', session: 's' }), owner);
    expect(ok.session).toBe('s');
  });

  it('in the last quarter of the bound a get answers what it holds and renews it in the background', async () => {
    const c = clock();
    const cache = new AuthCache<{ user: string; session: string }>(2000, 100, c.now);
    let loads = 0;
    const load = () => Promise.resolve({ user: 'u', session: `s${++loads}` });
    await cache.get('k', load, owner);
    c.advance(1499);
    expect((await cache.get('k', load, owner)).session).toBe('s1');
    expect(loads).toBe(1);
    c.advance(1); // the last quarter: the held answer now, a renewed one a moment later
    expect((await cache.get('k', load, owner)).session).toBe('s1');
    await Promise.resolve();
    expect(loads).toBe(2);
    expect((await cache.get('k', load, owner)).session).toBe('s2');
    // the renewed answer's bound counts from its own load (at 1500)
    c.advance(1499);
    expect(cache.peek('k')?.session).toBe('s2');
    c.advance(501);
    expect([cache.peek('k'), cache.peek('k')]).toEqual([undefined, undefined]);
  });

  it('peek answers until the bound; in its last quarter one caller per retry is sent to renew', () => {
    const c = clock();
    const cache = new AuthCache<string>(2000, 100, c.now);
    void cache.get(
      'k',
      () => Promise.resolve('v'),
      () => ({ userId: 'u', sessionId: null }),
    );
    return Promise.resolve().then(async () => {
      await Promise.resolve();
      expect(cache.peek('k')).toBe('v');
      c.advance(1500);
      expect(cache.peek('k')).toBeUndefined(); // this caller goes the full way
      expect(cache.peek('k')).toBe('v'); // the others are still answered
      c.advance(RENEW_RETRY_MS - 1);
      expect(cache.peek('k')).toBe('v');
      c.advance(1); // the one sent did not renew it: another goes
      expect(cache.peek('k')).toBeUndefined();
      expect(cache.peek('k')).toBe('v');
      c.advance(2000);
      expect(cache.peek('k')).toBeUndefined();
      expect(cache.peek('k')).toBeUndefined(); // past the bound, nobody
    });
  });
});

describe('authCacheMs', () => {
  it('defaults to the bound, turns off at 0, and never exceeds the bound', () => {
    expect(authCacheMs(undefined)).toBe(AUTH_CACHE_MAX_MS);
    expect(authCacheMs('')).toBe(AUTH_CACHE_MAX_MS);
    expect(authCacheMs('0')).toBe(0);
    expect(authCacheMs('500')).toBe(500);
    expect(authCacheMs('60000')).toBe(AUTH_CACHE_MAX_MS);
    expect(authCacheMs('-1')).toBe(AUTH_CACHE_MAX_MS);
    expect(authCacheMs('soon')).toBe(AUTH_CACHE_MAX_MS);
  });
});
