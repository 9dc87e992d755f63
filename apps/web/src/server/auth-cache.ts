import type { Db } from '@poolbench/db';
import { pubSubHub, redis } from './redis';
import {
  authCacheMs,
  createProcessAuth,
  type Revocation,
  type ProcessAuth,
  type SessionInfo,
} from './services/auth/auth-cache';
import type { ActiveTeam } from './services/teams/resolve-team';

export type { SessionInfo };

const g = globalThis as unknown as { __poolbenchAuth?: ProcessAuth };

/** This web process's authorization cache (`POOLBENCH_AUTH_CACHE_MS`, at most 2 s; 0 is off). */
function processAuth(): ProcessAuth {
  return (g.__poolbenchAuth ??= createProcessAuth({
    hub: pubSubHub(),
    publish: (channel, message) => redis().publish(channel, message),
    ttlMs: authCacheMs(process.env.POOLBENCH_AUTH_CACHE_MS),
  }));
}

export const cachedSession = (cookie: string, load: () => Promise<SessionInfo | null>) =>
  processAuth().session(cookie, load);

export const cachedTeam = (
  db: Db,
  userId: string,
  activeTeamId: string | null,
): Promise<ActiveTeam | null> => processAuth().team(db, userId, activeTeamId);

export const forgetAuth = (r: Revocation) => processAuth().forget(r);

/** What this process holds about a cookie's session and its team, without a lookup. */
export const peekSession = (cookie: string) => processAuth().peekSession(cookie);
export const peekTeam = (userId: string, activeTeamId: string | null) =>
  processAuth().peekTeam(userId, activeTeamId);
