import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { nextCookies } from 'better-auth/next-js';
import { db } from './db';
import { env } from './env';
import { createTeam } from './services/teams/create-team';

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
