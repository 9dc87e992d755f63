import { db } from '../db';
import { redis } from '../redis';
import { runQueue } from '../queue';
import { secretKey } from '../secret-key';
import { getSession } from '../session';
import { cachedTeam, forgetAuth } from '../auth-cache';
import { env } from '../env';
import type { Context } from './context';
import { httpOriginOf, originsOf } from './origin-check';

const APP_ORIGINS = originsOf([env.BETTER_AUTH_URL, env.POOLBENCH_URL, ...env.TRUSTED_ORIGINS]);

/** `overHttp`: the /api/trpc route, whose mutations get the Origin check; server components pass false. */
export async function createContext(opts: {
  headers: Headers;
  overHttp?: boolean;
}): Promise<Context> {
  const s = await getSession(opts.headers);
  return {
    db,
    redis,
    runQueue,
    secretKey,
    user: s?.user ?? null,
    sessionId: s?.sessionId ?? null,
    activeTeamId: s?.activeTeamId ?? null,
    resolveTeam: cachedTeam,
    forgetAuth,
    ...(opts.overHttp ? { http: httpOriginOf(opts.headers, APP_ORIGINS) } : {}),
  };
}
