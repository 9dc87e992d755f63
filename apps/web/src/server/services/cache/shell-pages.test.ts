import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AUTH_CACHE_MAX_MS } from '../auth/auth-cache';
import { PASS_ENCODING_HEADER, PASSED_ENCODING_HEADER } from './page-bytes-response';
import { ShellPages, shellKey, type ShellAuth } from './shell-pages';

const headers = (h: Record<string, string> = {}) => ({
  get: (name: string) => h[name.toLowerCase()] ?? null,
});
const COOKIE = 'better-auth.session_token=abc';
const NONCE = 'c2hlbGwtbm9uY2UtMDAwMQ==';
const html = (nonce = NONCE) =>
  `<!DOCTYPE html><html><head><script nonce="${nonce}" src="/a.js"></script></head><body>` +
  `<script nonce="${nonce}">self.__next_f.push([1,"x"])</script></body></html>`;
const rendered = (
  over: Partial<{ status: number; headers: Record<string, string>; body: Buffer }> = {},
) => ({
  status: 200,
  headers: {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': `default-src 'self'; script-src 'self' 'nonce-${NONCE}' 'strict-dynamic'`,
    'Cache-Control': 'private, no-cache, no-store, max-age=0, must-revalidate',
    'Content-Length': '123',
    'X-Frame-Options': 'DENY',
    ...over.headers,
  },
  body: over.body ?? Buffer.from(html()),
  ...(over.status === undefined ? {} : { status: over.status }),
});

/** An authorization cache holding one session and its team, both changeable by the test. */
function world() {
  let t = 1_000_000;
  const state = {
    session: { sessionId: 's1', user: { id: 'u1' }, activeTeamId: 't1' } as
      { sessionId: string; user: { id: string }; activeTeamId: string | null } | undefined,
    team: { id: 't1' } as { id: string } | undefined,
  };
  const auth: ShellAuth = {
    peekSession: () => state.session,
    peekTeam: () => state.team,
  };
  const shells = new ShellPages(auth, 500, () => t);
  const req = shellKey('GET', '/runs/r1', headers({ cookie: COOKIE }))!;
  return { state, shells, req, tick: (ms: number) => (t += ms) };
}

describe('shellKey', () => {
  const withCookie = headers({ cookie: COOKIE });
  it('takes documents of the run, experiment and compare pages with a session cookie', () => {
    for (const url of ['/runs/r1', '/experiments/e1?queue=unavailable', '/compare?a=1&b=2'])
      expect(shellKey('GET', url, withCookie), url).not.toBeNull();
  });
  it('leaves every other request to Next.js', () => {
    expect(shellKey('HEAD', '/runs/r1', withCookie)).toBeNull();
    expect(shellKey('POST', '/runs/r1', withCookie)).toBeNull();
    expect(shellKey('GET', '/runs', withCookie)).toBeNull();
    expect(shellKey('GET', '/runs/r1/edit', withCookie)).toBeNull();
    expect(shellKey('GET', '/targets/t1', withCookie)).toBeNull();
    expect(shellKey('GET', '/runs/r1', headers())).toBeNull(); // signed out
    // client-side navigations: their answer depends on the router's state
    expect(shellKey('GET', '/runs/r1', headers({ cookie: COOKIE, rsc: '1' }))).toBeNull();
    expect(
      shellKey('GET', '/runs/r1', headers({ cookie: COOKIE, 'next-router-state-tree': '%5B%5D' })),
    ).toBeNull();
    expect(shellKey('GET', '/compare?x=1&_rsc=abc', withCookie)).toBeNull();
  });
  it('keys by cookie and whole address', () => {
    const a = shellKey('GET', '/compare?a=1', withCookie)!.key;
    expect(shellKey('GET', '/compare?a=2', withCookie)!.key).not.toBe(a);
    expect(shellKey('GET', '/compare?a=1', headers({ cookie: `${COOKIE}x` }))!.key).not.toBe(a);
    expect(shellKey('GET', '/compare?a=1', withCookie)!.key).toBe(a);
  });
});

describe('ShellPages', () => {
  it('answers the same session with the kept HTML and a nonce of its own', () => {
    const { shells, req } = world();
    expect(shells.store(req, shells.ticket(), rendered())).toBe(true);
    const a = shells.answer(req, headers(), 'bmV3LW5vbmNlLTAwMDAwMDAx')!;
    expect(a.status).toBe(200);
    expect(a.body).toBe(html('bmV3LW5vbmNlLTAwMDAwMDAx'));
    expect(String(a.body)).not.toContain(NONCE);
    // the fast path sets the policy with the new nonce; one response's length is not another's
    expect(a.headers['content-security-policy']).toBeUndefined();
    expect(a.headers['content-length']).toBeUndefined();
    expect(a.headers['x-frame-options']).toBe('DENY');
    expect(a.headers['cache-control']).toContain('no-store');
  });

  it('sends gzip to a client that accepts it behind server.mjs, and reads what Next.js compressed', () => {
    const { shells, req } = world();
    const gz = rendered({ headers: { 'Content-Encoding': 'gzip' }, body: gzipSync(html()) });
    expect(shells.store(req, shells.ticket(), gz)).toBe(true);
    const a = shells.answer(
      req,
      headers({ [PASS_ENCODING_HEADER]: '1', 'accept-encoding': 'gzip, br' }),
      'Z3ppcC1ub25jZS0wMDAwMDAwMQ==',
    )!;
    expect(a.headers[PASSED_ENCODING_HEADER]).toBe('gzip');
    expect(gunzipSync(a.body as Buffer).toString()).toBe(html('Z3ppcC1ub25jZS0wMDAwMDAwMQ=='));
    const plain = shells.answer(req, headers({ 'accept-encoding': 'gzip' }), NONCE)!;
    expect(plain.headers[PASSED_ENCODING_HEADER]).toBeUndefined();
    expect(plain.body).toBe(html());
  });

  it('answers only while the authorization cache holds the same session and its team', () => {
    const w = world();
    w.shells.store(w.req, w.shells.ticket(), rendered());
    expect(w.shells.answer(w.req, headers(), NONCE)).not.toBeNull();
    w.state.team = undefined; // the team's decision expired or was revoked
    expect(w.shells.answer(w.req, headers(), NONCE)).toBeNull();
    w.state.team = { id: 't1' };
    w.state.session = { sessionId: 's1', user: { id: 'u1' }, activeTeamId: 't2' }; // switched team
    expect(w.shells.answer(w.req, headers(), NONCE)).toBeNull();
    w.state.session = { sessionId: 's2', user: { id: 'u1' }, activeTeamId: 't1' };
    expect(w.shells.answer(w.req, headers(), NONCE)).toBeNull();
    w.state.session = undefined; // signed out, or not decided within the bound
    expect(w.shells.answer(w.req, headers(), NONCE)).toBeNull();
  });

  it('keeps nothing but a whole 200 HTML page with its nonce, for a held session', () => {
    const w = world();
    const t = () => w.shells.ticket();
    expect(w.shells.store(w.req, t(), rendered({ status: 404 }))).toBe(false);
    expect(w.shells.store(w.req, t(), rendered({ headers: { 'Set-Cookie': 'a=b' } }))).toBe(false);
    expect(
      w.shells.store(w.req, t(), rendered({ headers: { 'Content-Type': 'application/json' } })),
    ).toBe(false);
    expect(
      w.shells.store(
        w.req,
        t(),
        rendered({ headers: { 'Content-Security-Policy': "default-src 'self'" } }),
      ),
    ).toBe(false);
    expect(
      w.shells.store(
        w.req,
        t(),
        rendered({ headers: { 'Content-Encoding': 'gzip' }, body: Buffer.from('not gzip') }),
      ),
    ).toBe(false);
    w.state.session = undefined;
    expect(w.shells.store(w.req, t(), rendered())).toBe(false);
    expect(w.shells.size).toBe(0);
  });

  it('keeps no render that a revocation may have overtaken, and forgets by user and session', () => {
    const w = world();
    const before = w.shells.ticket();
    w.shells.forget({ teamId: 'other' }); // any revocation while Next.js renders
    expect(w.shells.store(w.req, before, rendered())).toBe(false);
    expect(w.shells.store(w.req, w.shells.ticket(), rendered())).toBe(true);
    w.shells.forget({ userId: 'someone-else' });
    expect(w.shells.size).toBe(1);
    w.shells.forget({ sessionId: 's1' });
    expect(w.shells.size).toBe(0);
    w.shells.store(w.req, w.shells.ticket(), rendered());
    w.shells.forget({ userId: 'u1' });
    expect(w.shells.answer(w.req, headers(), NONCE)).toBeNull();
  });

  it('lasts the authorization bound from the render, and sends one request to renew it', () => {
    const w = world();
    w.shells.store(w.req, w.shells.ticket(), rendered());
    w.tick(AUTH_CACHE_MAX_MS * 0.75 - 1);
    expect(w.shells.answer(w.req, headers(), NONCE)).not.toBeNull();
    w.tick(2); // its last quarter: one request goes to Next.js, the others are answered
    expect(w.shells.answer(w.req, headers(), NONCE)).toBeNull();
    expect(w.shells.answer(w.req, headers(), NONCE)).not.toBeNull();
    w.tick(AUTH_CACHE_MAX_MS * 0.25);
    expect(w.shells.answer(w.req, headers(), NONCE)).toBeNull();
    expect(w.shells.size).toBe(0);
    // a render that took longer than the bound keeps nothing
    const slow = w.shells.ticket();
    w.tick(AUTH_CACHE_MAX_MS);
    expect(w.shells.store(w.req, slow, rendered())).toBe(false);
  });
});
