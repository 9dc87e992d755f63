import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import type { Context } from './context';
import { httpOriginOf, originsOf } from './origin-check';
import { appRouter } from './root';

const APP = 'https://pb.example.test';
const COOKIE = 'better-auth.session_token=abc';

/**
 * Mutations over the real tRPC fetch handler (the one /api/trpc uses) refuse foreign and missing
 * Origins for cookie-carrying requests, beside SameSite cookies. Real Postgres and Redis.
 */
describe('tRPC mutations check Origin', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_origin'));
    services = makeServices();
    A = await makeTeam(db, 'a');
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  /** The session is resolved from the cookie in production; here the owner is signed in directly. */
  const call = async (
    path: string,
    opts: {
      method?: 'GET' | 'POST';
      input?: unknown;
      headers?: Record<string, string>;
      signedIn?: boolean;
    },
  ) => {
    const method = opts.method ?? 'POST';
    const user = opts.signedIn === false ? null : A.users.owner;
    const url = `${APP}/api/trpc/${path}${method === 'GET' ? `?input=${encodeURIComponent(JSON.stringify({ json: opts.input ?? null }))}` : ''}`;
    const req = new Request(url, {
      method,
      headers: { 'content-type': 'application/json', ...opts.headers },
      ...(method === 'POST' ? { body: JSON.stringify({ json: opts.input ?? null }) } : {}),
    });
    const ctx: Context = {
      db,
      redis: () => services.redis,
      runQueue: () => services.queue,
      secretKey: () => services.key,
      user: user ? { id: user.id, name: user.id, email: user.email } : null,
      sessionId: user?.sessionId ?? null,
      activeTeamId: A.teamId,
      http: httpOriginOf(req.headers, originsOf([APP, 'http://localhost:3000'])),
    };
    const res = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req,
      router: appRouter,
      createContext: () => ctx,
    });
    const body = (await res.json()) as {
      error?: { json: { message: string; data: { code: string } } };
      result?: unknown;
    };
    return {
      status: res.status,
      code: body.error?.json.data.code,
      message: body.error?.json.message ?? '',
    };
  };
  const teams = () => db.team.count();

  it('a mutation from our own origin works', async () => {
    const before = await teams();
    const res = await call('team.create', {
      input: { name: 'Same origin' },
      headers: { origin: APP, cookie: COOKIE },
    });
    expect(res.status, res.message).toBe(200);
    expect(await teams()).toBe(before + 1);
  });

  it('a mutation with a foreign Origin is 403 FORBIDDEN with a clear message, and changes nothing', async () => {
    for (const origin of [
      'https://evil.example',
      'https://pb.example.test.evil.example',
      'http://pb.example.test',
      'null',
      'https://pb.example.test:8443',
    ]) {
      const before = await teams();
      const res = await call('team.create', {
        input: { name: 'Cross site' },
        headers: { origin, cookie: COOKIE },
      });
      expect(res.status, origin).toBe(403);
      expect(res.code).toBe('FORBIDDEN');
      expect(res.message).toContain('cross-site request refused');
      expect(res.message).toContain(APP);
      expect(await teams()).toBe(before);
    }
  });

  it('a cookie-carrying mutation without Origin is refused; one without cookies is left to the procedure', async () => {
    const noOrigin = await call('team.create', {
      input: { name: 'No origin' },
      headers: { cookie: COOKIE },
    });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.message).toContain('no Origin header');
    // no cookie: no session could authenticate it, so the origin check does not apply
    const anonymous = await call('team.create', { input: { name: 'Anon' }, signedIn: false });
    expect(anonymous.status).toBe(401);
    expect(anonymous.code).toBe('UNAUTHORIZED');
  });

  it('queries are not refused for their Origin (they change nothing, and CORS keeps their answers from other sites)', async () => {
    const res = await call('team.me', {
      method: 'GET',
      headers: { origin: 'https://evil.example', cookie: COOKIE },
    });
    expect(res.status, res.message).toBe(200);
  });

  // Every mutation in the router, including ones added later: the check runs before input validation.
  const mutations = Object.entries(
    appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>,
  )
    .filter(([, p]) => p._def.type === 'mutation')
    .map(([path]) => path)
    .sort();
  it('the router has mutations to check', () => expect(mutations.length).toBeGreaterThan(20));
  for (const path of mutations) {
    it(`${path}: foreign Origin → 403 FORBIDDEN`, async () => {
      const res = await call(path, {
        input: {},
        headers: { origin: 'https://evil.example', cookie: COOKIE },
      });
      expect(res.status).toBe(403);
      expect(res.message).toContain('cross-site request refused');
    });
  }
});
