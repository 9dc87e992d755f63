import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { nextCookies } from 'better-auth/next-js';
import type { Db } from '@poolbench/db';
import { createTeam } from '../teams/create-team';
import { sendPasswordResetMail, sendVerificationMail } from '../teams/invitation-mail';
import { CLIENT_IP_HEADER } from './guard-auth-request';

export interface AuthOptions {
  db: Db;
  secret: string;
  baseURL: string;
  trustedOrigins: string[];
  /** tells the web processes' authorization caches that a user's sessions were ended */
  forgetUser?: (userId: string) => Promise<unknown>;
}

/** The session token of a request's Better Auth cookie (`token.signature`), if it has one. */
export function sessionTokenOf(cookieHeader: string | null | undefined): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (!part.slice(0, eq).trim().endsWith('better-auth.session_token')) continue;
    try {
      const token = decodeURIComponent(part.slice(eq + 1).trim()).split('.')[0];
      if (token) return token;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Whoever verifies an address owns the account: anyone could have signed up with it first. Every
 * session of the account ends, except the verifier's own if it already was signed in to this
 * account (the usual case: the link opened in the browser that signed up). A verifier who was
 * not keeps no password set by someone else: the account's password is cleared, and its owner
 * chooses one by the reset mail (docs/security.md, "Email ownership").
 */
async function takeOwnership(db: Db, userId: string, request: Request | undefined) {
  const token = sessionTokenOf(request?.headers.get('cookie'));
  const own = token
    ? await db.session.findFirst({
        where: { token, userId, expiresAt: { gt: new Date() } },
        select: { id: true },
      })
    : null;
  await db.session.deleteMany({ where: { userId, ...(own ? { id: { not: own.id } } : {}) } });
  if (!own)
    await db.account.updateMany({
      where: { userId, providerId: 'credential' },
      data: { password: null },
    });
}

/**
 * Email + password accounts on the Prisma tables of @poolbench/db. Every new user gets a team of
 * their own (as owner), so the first sign-up always lands in a working app; invitations add
 * memberships in other teams.
 */
export function createAuth({ db, secret, baseURL, trustedOrigins, forgetUser }: AuthOptions) {
  return betterAuth({
    secret,
    baseURL,
    trustedOrigins,
    database: prismaAdapter(db, { provider: 'postgresql' }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // A reset proves the mailbox: every session ends and the address counts as verified.
      resetPasswordTokenExpiresIn: 3600,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await sendPasswordResetMail(user.email, url).catch((err: unknown) =>
          console.error(`[mail] password reset for ${user.email} not sent: ${String(err)}`),
        );
      },
      onPasswordReset: async ({ user }) => {
        await db.user.update({ where: { id: user.id }, data: { emailVerified: true } });
        await forgetUser?.(user.id);
      },
    },
    // Better Auth reads the client address only from the header `guardAuthRequest` sets from the
    // trusted-proxy rule (absent without trusted proxies), never from a client-sent
    // X-Forwarded-For.
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] } },
    // Sign-in, sign-up and mailed links are limited in `guardAuthRequest` (`SignInLimiter` per
    // account and trusted client, `SignUpLimiter`, `MailLinkLimiter` per address); Better Auth's
    // own per-address buckets would, without a trusted address, be one bucket shared by everyone.
    // The rest keeps Better Auth's limit (in production).
    rateLimit: {
      window: 60,
      max: 300,
      customRules: {
        '/sign-in/email': false,
        '/sign-up/email': false,
        '/request-password-reset': false,
        '/send-verification-email': false,
      },
    },
    // Every sign-up gets a verification link by mail (docs/security.md, "Email verification"). An
    // unverified account works in its own team; an invitation sent to its address needs it verified.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 3600,
      afterEmailVerification: async (user, request) => {
        await takeOwnership(db, user.id, request);
        await forgetUser?.(user.id);
      },
      sendVerificationEmail: async ({ user, url }) => {
        // a mail server that is down must not fail the sign-up: the banner sends the link again
        await sendVerificationMail(user.email, url).catch((err: unknown) =>
          console.error(`[mail] verification for ${user.email} not sent: ${String(err)}`),
        );
      },
    },
    session: {
      additionalFields: { activeTeamId: { type: 'string', required: false, input: false } },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            const first = user.name.trim().split(/\s+/)[0] || 'My';
            await createTeam(db, { userId: user.id, name: `${first}'s team` });
          },
        },
      },
    },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;
