import { toNextJsHandler } from 'better-auth/next-js';
import { auth } from '~/server/auth';
import { guardAuthRequest } from '~/server/services/auth/guard-auth-request';
import { signInLimiter } from '~/server/services/auth/limiter-instance';

const handler = guardAuthRequest(auth.handler, signInLimiter);

export const { GET, POST } = toNextJsHandler(handler);
