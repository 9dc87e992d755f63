import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { nextCookies } from 'better-auth/next-js';
import type { Db } from '@poolbench/db';
import { createTeam } from '../teams/create-team';
import { sendVerificationMail } from '../teams/invitation-mail';
import { CLIENT_IP_HEADER } from './guard-auth-request';

export interface AuthOptions {
  db: Db;
  secret: string;
  baseURL: string;
  trustedOrigins: string[];
}

/**
 * Email + password accounts on the Prisma tables of @poolbench/db. Every new user gets a team of
 * their own (as owner), so the first sign-up always lands in a working app; invitations add
 * memberships in other teams.
 */
export function createAuth({ db, secret, baseURL, trustedOrigins }: AuthOptions) {
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
    },
    // Better Auth reads the client address only from the header `guardAuthRequest` sets from the
    // trusted-proxy rule (absent without trusted proxies), never from a client-sent
    // X-Forwarded-For.
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] } },
    // Sign-in and sign-up are limited by `SignInLimiter` (per account and per trusted client) in
    // `guardAuthRequest`; Better Auth's own per-address buckets would, without a trusted address,
    // be one bucket shared by everyone. The rest keeps Better Auth's limit (in production).
    rateLimit: {
      window: 60,
      max: 300,
      customRules: { '/sign-in/email': false, '/sign-up/email': false },
    },
    // Every sign-up gets a verification link by mail (docs/security.md, "Email verification"). An
    // unverified account works in its own team; an invitation sent to its address needs it verified.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 3600,
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
