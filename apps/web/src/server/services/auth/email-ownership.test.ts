import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createEmailVerificationToken } from 'better-auth/api';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { createAuth, sessionTokenOf, type Auth } from './create-auth';

const APP = 'http://localhost:3000';
const SECRET = 'test-secret-0123456789abcdef';

/**
 * Pre-account hijacking, replayed on Better Auth's real routes and Postgres: an attacker signs up
 * with someone else's address before they do; when the address's owner verifies it, the account
 * is theirs alone. A password reset by mail proves the address the same way.
 */
describe('email ownership', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let auth: Auth;
  const forgotten: string[] = [];

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_email_ownership'));
    auth = createAuth({
      db,
      secret: SECRET,
      baseURL: APP,
      trustedOrigins: [APP],
      forgetUser: async (userId) => forgotten.push(userId),
    });
  });
  afterAll(async () => {
    await dispose?.();
  });

  /** The cookie header a browser would send after this response (session cookies only). */
  const cookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .filter((c) => c.includes('better-auth.session_token=') && !c.endsWith('='))
      .join('; ');
  const call = (path: string, init: { body?: unknown; cookie?: string; method?: string } = {}) =>
    auth.handler(
      new Request(`${APP}/api/auth${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          'content-type': 'application/json',
          origin: APP,
          ...(init.cookie ? { cookie: init.cookie } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
    );
  const signUp = (email: string, password: string) =>
    call('/sign-up/email', { body: { name: 'Some One', email, password } });
  const signIn = (email: string, password: string) =>
    call('/sign-in/email', { body: { email, password } });
  const sessionOf = async (cookie: string) =>
    (await (await call('/get-session', { cookie })).json()) as { user: { email: string } } | null;
  const verify = async (email: string, cookie?: string) => {
    const token = await createEmailVerificationToken(SECRET, email);
    return call(`/verify-email?token=${token}`, { cookie });
  };
  const address = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.test`;

  it('the address owner verifying ends the attacker sessions and password', async () => {
    const victim = address('victim');
    const attacker = await signUp(victim, 'attacker-password-1');
    expect(attacker.status).toBe(200);
    const attackerCookie = cookieOf(attacker);
    expect((await sessionOf(attackerCookie))?.user.email).toBe(victim);
    // a second attacker session, signed in elsewhere
    const elsewhere = cookieOf(await signIn(victim, 'attacker-password-1'));
    expect((await sessionOf(elsewhere))?.user.email).toBe(victim);

    // the owner opens the link from their mailbox, in a browser with no session of this account
    const verified = await verify(victim);
    expect(verified.status).toBe(200);
    const ownerCookie = cookieOf(verified);
    expect((await sessionOf(ownerCookie))?.user.email).toBe(victim);

    expect(await sessionOf(attackerCookie)).toBeNull();
    expect(await sessionOf(elsewhere)).toBeNull();
    expect((await signIn(victim, 'attacker-password-1')).status).toBe(401);
    const user = await db.user.findUniqueOrThrow({ where: { email: victim } });
    expect(user.emailVerified).toBe(true);
    expect(forgotten).toContain(user.id);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(1);
  });

  it('verifying in the browser that signed up keeps that session and the password', async () => {
    const email = address('honest');
    const cookie = cookieOf(await signUp(email, 'honest-password-1'));
    const other = cookieOf(await signIn(email, 'honest-password-1'));
    expect((await verify(email, cookie)).status).toBe(200);
    expect((await sessionOf(cookie))?.user.email).toBe(email);
    // every other session still ends: the verifier alone is known to hold the mailbox
    expect(await sessionOf(other)).toBeNull();
    expect((await signIn(email, 'honest-password-1')).status).toBe(200);
  });

  it('a password reset by mail ends every session and proves the address', async () => {
    const victim = address('reset');
    const attackerCookie = cookieOf(await signUp(victim, 'attacker-password-2'));
    const asked = await call('/request-password-reset', {
      body: { email: victim, redirectTo: '/reset-password' },
    });
    expect(asked.status).toBe(200);
    // the link's token, as the mail carries it (Better Auth keeps it as a verification value)
    const row = await db.verification.findFirstOrThrow({
      where: { identifier: { startsWith: 'reset-password:' } },
      orderBy: { createdAt: 'desc' },
    });
    const token = row.identifier.slice('reset-password:'.length);
    const reset = await call('/reset-password', {
      body: { newPassword: 'owner-password-2', token },
    });
    expect(reset.status).toBe(200);
    expect(await sessionOf(attackerCookie)).toBeNull();
    expect((await signIn(victim, 'attacker-password-2')).status).toBe(401);
    expect((await signIn(victim, 'owner-password-2')).status).toBe(200);
    const user = await db.user.findUniqueOrThrow({ where: { email: victim } });
    expect(user.emailVerified).toBe(true);
    // a reset link works once
    expect(
      (await call('/reset-password', { body: { newPassword: 'third-password-3', token } })).status,
    ).toBe(400);
  });

  it('reads the session token from the cookie header only', () => {
    expect(sessionTokenOf('a=1; better-auth.session_token=tok.sig%3D; b=2')).toBe('tok');
    expect(sessionTokenOf('__Secure-better-auth.session_token=t2.s')).toBe('t2');
    expect(sessionTokenOf('other=1')).toBeNull();
    expect(sessionTokenOf(undefined)).toBeNull();
    expect(sessionTokenOf('better-auth.session_token=%zz')).toBeNull();
  });
});
