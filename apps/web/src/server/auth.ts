import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { nextCookies } from 'better-auth/next-js';
import { db } from './db';
import { env } from './env';
import { createTeam } from './services/teams/create-team';
import { sendVerificationMail } from './services/teams/invitation-mail';

/**
 * Email + password accounts on the Prisma tables of @poolbench/db. Every new user gets a team of
 * their own (as owner), so the first sign-up always lands in a working app; invitations add
 * memberships in other teams.
 */
export const auth = betterAuth({
  secret: env.BETTER_AUTH_SECRET,
  baseURL: env.BETTER_AUTH_URL,
  trustedOrigins: env.TRUSTED_ORIGINS,
  database: prismaAdapter(db, { provider: 'postgresql' }),
  emailAndPassword: {
    enabled: true,
    autoSignIn: true,
    minPasswordLength: 8,
    maxPasswordLength: 128,
  },
  // Better Auth's production default allows 3 sign-ups/sign-ins per 10 s per address: too tight
  // for a team behind one NAT (and for the browser tests), still a brake on password guessing.
  rateLimit: {
    window: 60,
    max: 300,
    customRules: {
      '/sign-in/email': { window: 60, max: 30 },
      '/sign-up/email': { window: 60, max: 30 },
    },
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

export type AuthSession = typeof auth.$Infer.Session;
