import { describe, expect, it } from 'vitest';
import { RecentPages } from './finished-data-cache';
import { RENEW_RETRY_MS } from './renewal';

const at = (t: number) => ({ generation: 0, at: t });

describe('RecentPages: which page a key got, for a bounded time', () => {
  it('answers until the entry ends, and not at its end', () => {
    const r = new RecentPages();
    r.remember('k', 'team-a', '"e1"', at(0), 1000);
    expect(r.getOrSendToRenew('k', 700)).toMatchObject({ owner: 'team-a', etag: '"e1"' });
    expect(r.getOrSendToRenew('k', 1000)).toBeUndefined();
    // an ended entry is gone, not only hidden: an earlier clock does not bring it back
    expect(r.getOrSendToRenew('k', 0)).toBeUndefined();
  });

  it("forgets an owner's entries and no one else's", () => {
    const r = new RecentPages();
    r.remember('a1', 'team-a', '"1"', r.ticket(0), 5000);
    r.remember('a2', 'team-a', '"2"', r.ticket(0), 5000);
    r.remember('b1', 'team-b', '"3"', r.ticket(0), 5000);
    r.forget('team-a');
    expect([r.get('a1', 0), r.get('a2', 0), r.get('b1', 0)?.etag]).toEqual([
      undefined,
      undefined,
      '"3"',
    ]);
  });

  it('keeps nothing a route decided before a forget: its reads may predate the revocation', () => {
    const r = new RecentPages();
    const before = r.ticket(0); // the route starts its reads …
    r.forget('link-1'); // … the link is revoked meanwhile …
    r.remember('k', 'link-1', '"e"', before, 2000); // … and the route ends
    expect(r.getOrSendToRenew('k', 1)).toBeUndefined();
    const after = r.ticket(1);
    r.remember('k', 'link-1', '"e"', after, 2001);
    expect(r.getOrSendToRenew('k', 2)?.etag).toBe('"e"');
  });

  it('counts the bound from when the route began, and keeps nothing with no time left', () => {
    const r = new RecentPages();
    r.remember('slow', 'o', '"s"', r.ticket(0), 2000); // stored at 1800, say
    expect(r.get('slow', 1499)).toBeDefined();
    expect(r.getOrSendToRenew('slow', 2000)).toBeUndefined();
    r.remember('off', 'o', '"o"', r.ticket(0), 0); // POOLBENCH_AUTH_CACHE_MS=0
    expect(r.getOrSendToRenew('off', 0)).toBeUndefined();
  });

  it('keeps at most max entries, dropping the least recently remembered', () => {
    const r = new RecentPages(2);
    r.remember('x', 'o', '"x"', r.ticket(0), 5000);
    r.remember('y', 'o', '"y"', r.ticket(0), 5000);
    r.remember('x', 'o', '"x2"', r.ticket(0), 5000); // remembered again: now the newest
    r.remember('z', 'o', '"z"', r.ticket(0), 5000);
    expect([r.get('x', 0)?.etag, r.get('y', 0), r.get('z', 0)?.etag]).toEqual([
      '"x2"',
      undefined,
      '"z"',
    ]);
  });
});

describe('RecentPages: renewal in the last quarter', () => {
  it('a route uses an entry only before its last quarter; the fast path until its end, but sends one request at a time to renew it', () => {
    const r = new RecentPages();
    r.remember('k', 'o', '"e"', at(0), 2000); // the last quarter begins at 1500
    expect(r.get('k', 1499)?.etag).toBe('"e"');
    expect(r.get('k', 1500)).toBeUndefined();
    expect(r.getOrSendToRenew('k', 1500)).toBeUndefined(); // sent to the route
    expect(r.getOrSendToRenew('k', 1501)?.etag).toBe('"e"');
    expect(r.getOrSendToRenew('k', 1500 + RENEW_RETRY_MS)).toBeUndefined(); // not renewed: again
    expect(r.getOrSendToRenew('k', 1999)?.etag).toBe('"e"');
    expect(r.getOrSendToRenew('k', 2000)).toBeUndefined();
    // renewed by the route: a whole new bound
    r.remember('k', 'o', '"e"', at(2000), 4000);
    expect(r.getOrSendToRenew('k', 3499)?.etag).toBe('"e"');
  });
});

describe('RecentPages: a decision in flight', () => {
  it('is waited on while nothing is held, by key, and ends whatever the route decided', async () => {
    const r = new RecentPages();
    expect(r.decision('k', 0)).toBeUndefined();
    const done = r.decide('k');
    // a second route for the same key records nothing and ends nothing
    const second = r.decide('k');
    second();
    const waiting = r.decision('k', 0);
    expect(waiting).toBeInstanceOf(Promise);
    expect(r.decision('other', 0)).toBeUndefined();
    let woke = false;
    void waiting!.then(() => (woke = true));
    await Promise.resolve();
    expect(woke).toBe(false);
    r.remember('k', 'o', '"e"', r.ticket(0), 2000);
    // once an entry is held (also in its renewal quarter) nobody waits: it answers, or renews
    expect(r.decision('k', 0)).toBeUndefined();
    expect(r.decision('k', 1600)).toBeUndefined();
    done();
    await waiting;
    expect(woke).toBe(true);
    expect(r.decision('k', 2000)).toBeUndefined();
  });
});
