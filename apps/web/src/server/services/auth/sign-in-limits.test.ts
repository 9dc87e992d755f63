import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { makeServices } from '~/test/fixtures';
import { createAuth, type Auth } from './create-auth';
import { guardAuthRequest } from './guard-auth-request';
import { SIGN_IN_LIMITS, SignInLimiter, type SignInLimits } from './sign-in-limiter';
import { SIGN_UP_LIMITS, SignUpLimiter, type SignUpLimits } from './sign-up-limiter';
import { MAIL_LINK_LIMITS, MailLinkLimiter } from './mail-link-limiter';

const APP = 'http://localhost:3000';
const PASSWORD = 'right-password-1';
const PROXY = '198.51.100.7'; // the address our trusted proxy saw for the attacker
const VICTIM_IP = '203.0.113.9';

/**
 * The sign-in and sign-up endpoints as the route serves them (Better Auth behind
 * `guardAuthRequest`), on real Postgres and Redis: guessing is limited per trusted client and
 * slowed per account, and nobody's failures refuse someone else's right password.
 */
describe('sign-in limits', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let auth: Auth;

  const handlerFor = (
    proxyHops: number,
    limits: Partial<SignInLimits> = {},
    wait?: (ms: number) => Promise<unknown>,
    signUpLimits: SignUpLimits = {
      perInstallationPerMinute: 10_000,
      perClient: 10_000,
      clientWindowSeconds: 60,
    },
    now?: () => number,
  ) =>
    guardAuthRequest(
      auth.handler,
      new SignInLimiter(
        () => services.redis,
        proxyHops,
        { ...SIGN_IN_LIMITS, baseDelayMs: 1, maxDelayMs: 5, ...limits },
        `pbtest-sign-in-${randomBytes(4).toString('hex')}`,
        now,
      ),
      new SignUpLimiter(
        () => services.redis,
        signUpLimits,
        `pbtest-sign-up-${randomBytes(4).toString('hex')}`,
      ),
      new MailLinkLimiter(
        () => services.redis,
        MAIL_LINK_LIMITS,
        `pbtest-mail-links-${randomBytes(4).toString('hex')}`,
      ),
      wait,
    );
  const post = (
    handler: (r: Request) => Promise<Response>,
    path: string,
    body: unknown,
    xff?: string,
  ) =>
    handler(
      new Request(`${APP}/api/auth${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: APP,
          ...(xff ? { 'x-forwarded-for': xff } : {}),
        },
        body: JSON.stringify(body),
      }),
    );
  const signIn = (h: (r: Request) => Promise<Response>, email: string, pw: string, xff?: string) =>
    post(h, '/sign-in/email', { email, password: pw }, xff);

  let n = 0;
  const newUser = async () => {
    const email = `victim-${++n}-${randomBytes(3).toString('hex')}@example.test`;
    const res = await post(handlerFor(0), '/sign-up/email', {
      name: 'Vic Tim',
      email,
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    return email;
  };

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_sign_in'));
    services = makeServices();
    auth = createAuth({
      db,
      secret: 'test-secret-0123456789abcdef',
      baseURL: APP,
      trustedOrigins: [APP],
    });
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('a rotating X-Forwarded-For does not dodge the per-client limit behind a trusted proxy', async () => {
    const email = await newUser();
    const h = handlerFor(1);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await signIn(h, email, 'wrong-guess', `10.0.${i}.1, ${PROXY}`)).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    const refused = await signIn(h, email, PASSWORD, `10.9.9.9, ${PROXY}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(SIGN_IN_LIMITS.windowSeconds));
    expect(((await refused.json()) as { code: string }).code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('a forged victim address charges the attacker, and the victim still signs in', async () => {
    const email = await newUser();
    const h = handlerFor(1);
    for (let i = 0; i < 20; i++) await signIn(h, email, 'wrong-guess', `${VICTIM_IP}, ${PROXY}`);
    expect((await signIn(h, email, PASSWORD, VICTIM_IP)).status).toBe(200);
    // without trusted proxies the header is ignored altogether
    const direct = handlerFor(0);
    for (let i = 0; i < 50; i++) {
      expect((await signIn(direct, email, 'wrong-guess', VICTIM_IP)).status).toBe(401);
    }
    expect((await signIn(direct, email, PASSWORD, VICTIM_IP)).status).toBe(200);
  });

  it('without the header, 50 wrong passwords do not lock the right one out', async () => {
    const email = await newUser();
    const h = handlerFor(0);
    for (let i = 0; i < 50; i++) expect((await signIn(h, email, `wrong-${i}`)).status).toBe(401);
    expect((await signIn(h, email, PASSWORD)).status).toBe(200);
  });

  it('failures on one account slow every sign-in on it down, and refuse no right password', async () => {
    const email = await newUser();
    // the delays the guard decided, recorded as it waits them; the clock only checks that a
    // delay was really waited (a lower bound holds however busy the machine is)
    let waited = 0;
    const h = handlerFor(1, { freeAccountFailures: 3, baseDelayMs: 300, maxDelayMs: 600 }, (ms) => {
      waited += ms;
      return new Promise((r) => setTimeout(r, ms));
    });
    const timed = async (pw: string, ip: string) => {
      waited = 0;
      const t0 = performance.now();
      const res = await signIn(h, email, pw, ip);
      return { status: res.status, ms: performance.now() - t0, delayMs: waited };
    };
    // each guess from a different (real) address: no client budget is reached
    for (let i = 0; i < 3; i++)
      expect(await timed('wrong', `192.0.2.${i}`)).toMatchObject({ status: 401, delayMs: 0 });
    expect(await timed('wrong', '192.0.2.50')).toMatchObject({ status: 401, delayMs: 0 });
    const fifth = await timed('wrong', '192.0.2.51');
    expect(fifth).toMatchObject({ status: 401, delayMs: 300 });
    expect(fifth.ms).toBeGreaterThanOrEqual(290);
    const sixth = await timed('wrong', '192.0.2.52');
    expect(sixth).toMatchObject({ status: 401, delayMs: 600 });
    expect(sixth.ms).toBeGreaterThanOrEqual(590);
    // the real user, from an address that has not failed: slowed, never refused
    const victim = await timed(PASSWORD, VICTIM_IP);
    expect(victim).toMatchObject({ status: 200, delayMs: 600 });
    expect(victim.ms).toBeGreaterThanOrEqual(590);
    // a success clears the account's failures
    expect(await timed(PASSWORD, VICTIM_IP)).toMatchObject({ status: 200, delayMs: 0 });
  });

  it('one client failing on many accounts reaches its own budget only', async () => {
    const emails = await Promise.all([newUser(), newUser(), newUser()]);
    const h = handlerFor(1, { perClient: 6 });
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      statuses.push((await signIn(h, emails[i % 3]!, 'wrong', PROXY)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429]);
    for (const email of emails)
      expect((await signIn(h, email, PASSWORD, VICTIM_IP)).status).toBe(200);
  });

  it('a sign-up with a taken email answers like any refusal, naming no account', async () => {
    const email = await newUser();
    const h = handlerFor(0);
    const res = await post(h, '/sign-up/email', {
      name: 'Mallory',
      email,
      password: 'another-pw-1',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('SIGN_UP_REFUSED');
    expect(body.message).not.toMatch(/exist/i);
  });

  it('wrong passwords sent at once wait as long as the same ones sent one by one', async () => {
    const email = await newUser();
    const limits = { freeAccountFailures: 5, baseDelayMs: 50, maxDelayMs: 200 };
    // what 30 serial failures wait in total: nothing for the free ones, then 50, 100, 200, 200, …
    let serialMs = 0;
    for (let k = 0; k < 30; k++) {
      const over = k - limits.freeAccountFailures;
      serialMs += over <= 0 ? 0 : Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** (over - 1));
    }
    // all 30 sent at one instant of the limiter's clock; when each attempt's wait would end,
    // recorded instead of waited (the test above waits its delays for real)
    const t0 = Date.now();
    const ends: number[] = [];
    const h = handlerFor(
      0,
      limits,
      (ms) => {
        ends.push(t0 + ms);
        return Promise.resolve();
      },
      undefined,
      () => t0,
    );
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(h, email, `wrong-${i}`).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 401)).toBe(true);
    // the last guess is checked the serial total after the first was sent, not sooner
    expect(Math.max(t0, ...ends) - t0).toBe(serialMs);
    expect((await signIn(h, email, PASSWORD)).status).toBe(200);
  });

  it('attempts that would queue past the bound meet 429 with the time the queue frees up', async () => {
    const email = await newUser();
    let t = Date.now();
    const h = handlerFor(
      0,
      { freeAccountFailures: 0, baseDelayMs: 400, maxDelayMs: 400, maxQueueMs: 2000 },
      () => Promise.resolve(), // the delays are the clock's, not waited
      undefined,
      () => t,
    );
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => signIn(h, email, 'wrong')),
    );
    const statuses = responses.map((r) => r.status);
    // at one instant, one free attempt and 2000 / 400 queued ones fit, the other four do not
    expect(statuses.filter((s) => s === 401)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const refused = responses.find((r) => r.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(((await refused.json()) as { message: string }).message).toMatch(/waiting/);
    // the queue ends 2000 ms ahead; one more 400 ms turn fits once 400 ms have passed, not before
    t += 399;
    expect((await signIn(h, email, PASSWORD)).status).toBe(429);
    t += 1;
    expect((await signIn(h, email, PASSWORD)).status).toBe(200);
  });

  it('20 sign-ups from one client in 10 s meet a 429, with or without a trusted proxy', async () => {
    for (const hops of [0, 1]) {
      const h = handlerFor(hops, {}, undefined, SIGN_UP_LIMITS);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await post(
          h,
          '/sign-up/email',
          {
            name: 'Many',
            email: `many-${hops}-${i}-${randomBytes(3).toString('hex')}@example.test`,
            password: PASSWORD,
          },
          PROXY,
        );
        statuses.push(res.status);
        if (res.status === 429) {
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(((await res.json()) as { code: string }).code).toBe('TOO_MANY_SIGN_UPS');
        }
      }
      const allowed =
        hops === 1 ? SIGN_UP_LIMITS.perClient : SIGN_UP_LIMITS.perInstallationPerMinute;
      expect(statuses.slice(0, allowed).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(allowed).every((s) => s === 429)).toBe(true);
    }
  });

  it('reset links are held per address, not in one bucket shared by everyone', async () => {
    const h = handlerFor(0);
    const [victim, other] = [await newUser(), await newUser()];
    const reset = (email: string) =>
      post(h, '/request-password-reset', { email, redirectTo: '/reset-password' });
    // someone asks for the victim's link again and again: the fourth is refused for that address
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await reset(victim)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await reset(victim);
    expect(refused.headers.get('retry-after')).toBe('900');
    expect(((await refused.json()) as { code: string }).code).toBe('TOO_MANY_MAIL_LINKS');
    // everyone else's links still go out, and an unknown address answers like a known one
    expect((await reset(other)).status).toBe(200);
    expect((await reset(`nobody-${randomBytes(3).toString('hex')}@example.test`)).status).toBe(200);
  });
});
