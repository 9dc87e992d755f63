import { toNextJsHandler } from 'better-auth/next-js';
import { auth } from '~/server/auth';
import { forgetAuth } from '~/server/auth-cache';
import { guardAuthRequest } from '~/server/services/auth/guard-auth-request';
import {
  mailLinkLimiter,
  signInLimiter,
  signUpLimiter,
} from '~/server/services/auth/limiter-instance';
import { getSession } from '~/server/session';

const guarded = guardAuthRequest(auth.handler, signInLimiter, signUpLimiter, mailLinkLimiter);

/**
 * Better Auth's routes. Anything but reading the session may change who the caller is (sign-out,
 * a verified address, a changed password): what the web processes cache about the caller's
 * session and user is forgotten once it is done.
 */
async function handler(req: Request): Promise<Response> {
  if (new URL(req.url).pathname.endsWith('/get-session')) return guarded(req);
  const before = await getSession(req.headers).catch(() => null);
  const res = await guarded(req);
  if (before) await forgetAuth({ userId: before.user.id, sessionId: before.sessionId });
  return res;
}

export const { GET, POST } = toNextJsHandler(handler);
