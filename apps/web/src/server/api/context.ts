import type { Db } from '@poolbench/db';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Revocation } from '../services/auth/auth-cache';
import type { SessionUser } from '../services/auth/session-user';
import type { ActiveTeam } from '../services/teams/resolve-team';
import type { HttpOrigin } from './origin-check';

export type { SessionUser };

/** Everything a procedure may touch; tests build the same shape against temp databases. */
export interface Context {
  db: Db;
  /** producer connection for publishCancel */
  redis: () => Redis;
  runQueue: () => Queue;
  /** AES key for sealing target secrets; throws with a clear message when not configured */
  secretKey: () => Buffer;
  user: SessionUser | null;
  sessionId: string | null;
  /** team chosen in the switcher; validated against memberships on every request */
  activeTeamId: string | null;
  /** set for requests over HTTP (the /api/trpc route); server-side callers have none */
  http?: HttpOrigin;
  /** `resolveTeam` as the web process caches it; without it every request asks the database */
  resolveTeam?: (db: Db, userId: string, activeTeamId: string | null) => Promise<ActiveTeam | null>;
  /** installation admins named by address (POOLBENCH_INSTALLATION_ADMINS when unset) */
  installationAdmins?: readonly string[];
  /** revokes what web processes cache about a user, session or share link (see `forgetAuth`) */
  forgetAuth?: (revocation: Revocation) => Promise<void>;
}
