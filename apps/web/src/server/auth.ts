import { forgetAuth } from './auth-cache';
import { db } from './db';
import { env } from './env';
import { createAuth } from './services/auth/create-auth';

export const auth = createAuth({
  db,
  secret: env.BETTER_AUTH_SECRET,
  baseURL: env.BETTER_AUTH_URL,
  trustedOrigins: env.TRUSTED_ORIGINS,
  forgetUser: (userId) => forgetAuth({ userId }),
});

export type AuthSession = typeof auth.$Infer.Session;
