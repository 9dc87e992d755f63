import { createHash } from 'node:crypto';
import type { Db } from '@poolbench/db';
import type { PubSubHub } from '@poolbench/queue';
import { z } from 'zod';
import type { SessionUser } from './session-user';
import { processWide } from '../../process-wide';
import { renewable, useOrSendToRenew, type Renewable } from '../cache/renewal';
import { resolveTeam, type ActiveTeam } from '../teams/resolve-team';

/**
 * How long a request may rely on an earlier request's answer to "who is this and what may they
 * do": the session behind a cookie, and a user's team and role. Revocation (sign-out, removal
 * from a team, a lower role) takes effect at the latest this long after it was made, and at once
 * in the process that made it and in every process that hears of it over Redis.
 */
export const AUTH_CACHE_MAX_MS = 2000;

/** `POOLBENCH_AUTH_CACHE_MS` (0 turns the cache off), bounded by `AUTH_CACHE_MAX_MS`. */
export function authCacheMs(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return AUTH_CACHE_MAX_MS;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) return AUTH_CACHE_MAX_MS;
  return Math.min(Math.floor(n), AUTH_CACHE_MAX_MS);
}

/**
 * How long this process keeps decided answers: sessions and teams, and the recent pages of finished
 * runs, comparisons and share links (`POOLBENCH_AUTH_CACHE_MS`; 0 keeps none).
 */
export const keptAnswerMs = () => authCacheMs(process.env.POOLBENCH_AUTH_CACHE_MS);

interface Entry<V> extends Renewable {
  value: V;
  userId: string | null;
  sessionId: string | null;
}

/** What an entry is about, so that revoking a user or a session can find it. */
export interface Owner {
  userId: string | null;
  sessionId: string | null;
}

/**
 * What a revocation is about: a user, a session, a share link, or a team whose results changed
 * (a baseline set, an experiment extended: its recent comparisons are recomputed).
 */
export type Revocation = Partial<Owner> & {
  shareLinkId?: string | null;
  teamId?: string | null;
};

const revocationListeners = processWide(
  'revocation-listeners',
  () => new Map<string, (r: Revocation) => void>(),
);

/**
 * Other caches of this process that hold answers bounded by `AUTH_CACHE_MAX_MS` (recent share
 * views, run pages and comparisons) hear every revocation this process makes or hears of. One
 * listener per name: every copy of a module registers the same one.
 */
export function onRevocation(name: string, listener: (r: Revocation) => void): void {
  revocationListeners.set(name, listener);
}

/**
 * Answers kept for at most `ttlMs`, at most `max` of them (the oldest go first), and forgotten at
 * once by user or by session. Concurrent misses of one key share a single load. A load that
 * started before a revocation of its answer's user or session is not stored: its answer may
 * predate the change (loads about anyone else are). In an answer's last quarter a `get` renews it
 * in the background and answers the one it holds (see renewal.ts).
 */
export class AuthCache<V> {
  private readonly map = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V>>();
  /** revocations numbered in order, kept while a load that started before them is in flight */
  private revocations: Array<Partial<Owner> & { seq: number }> = [];
  private seq = 0;
  /** the `seq` each load in flight started at */
  private readonly inFlight = new Set<{ since: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The answer held for this key while it lasts, without loading one; in its last quarter
   * undefined for one caller at a time, whose `get` then renews it.
   */
  peek(key: string): V | undefined {
    const hit = this.ttlMs > 0 ? this.map.get(key) : undefined;
    return hit && useOrSendToRenew(hit, this.now()) ? hit.value : undefined;
  }

  async get(key: string, load: () => Promise<V>, ownerOf: (v: V) => Owner): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const now = this.now();
    const hit = this.map.get(key);
    if (hit && hit.until > now) {
      if (hit.renewAt <= now && !this.loading.has(key))
        this.load(key, load, ownerOf).catch(() => undefined);
      return hit.value;
    }
    if (hit) this.map.delete(key);
    return this.loading.get(key) ?? this.load(key, load, ownerOf);
  }

  private load(key: string, load: () => Promise<V>, ownerOf: (v: V) => Owner): Promise<V> {
    const flight = { since: this.seq };
    this.inFlight.add(flight);
    const started = this.now();
    const p = load()
      .then((value) => {
        const owner = ownerOf(value);
        if (!this.revokedSince(flight.since, owner)) {
          this.map.delete(key);
          this.map.set(key, { value, ...renewable(started, started + this.ttlMs), ...owner });
          while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
        }
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === p) this.loading.delete(key);
        this.inFlight.delete(flight);
        this.pruneRevocations();
      });
    this.loading.set(key, p);
    return p;
  }

  private revokedSince(since: number, owner: Owner): boolean {
    return this.revocations.some(
      (r) =>
        r.seq > since &&
        ((r.userId && r.userId === owner.userId) ||
          (r.sessionId && r.sessionId === owner.sessionId)),
    );
  }

  /** Drops the revocations no load in flight started before. */
  private pruneRevocations(): void {
    let oldest = this.seq;
    for (const f of this.inFlight) oldest = Math.min(oldest, f.since);
    this.revocations = this.revocations.filter((r) => r.seq > oldest);
  }

  /** Forget every answer about this user or this session (either may be null). */
  forget(owner: Partial<Owner>): void {
    this.revocations.push({ ...owner, seq: ++this.seq });
    this.pruneRevocations();
    // a load in flight may be about them: callers from now on do not share it
    this.loading.clear();
    for (const [key, e] of this.map) {
      if (
        (owner.userId && e.userId === owner.userId) ||
        (owner.sessionId && e.sessionId === owner.sessionId)
      )
        this.map.delete(key);
    }
  }

  get size(): number {
    return this.map.size;
  }
}

export interface SessionInfo {
  user: SessionUser;
  sessionId: string;
  activeTeamId: string | null;
  /**
   * Whether the account signs in with a password, read with the session: whatever sets or clears
   * a password (the reset mail, a verification from another browser) ends every session of the
   * account, so a kept session's answer holds while that session does.
   */
  hasPassword?: boolean;
}

/** Revocations made in one web process, heard by the others (each forgets at once). */
export const AUTH_FORGET_CHANNEL = 'poolbench:auth:forget';
const ForgetSchema = z.object({
  userId: z.string().min(1).max(200).nullish(),
  sessionId: z.string().min(1).max(200).nullish(),
  shareLinkId: z.string().min(1).max(200).nullish(),
  teamId: z.string().min(1).max(200).nullish(),
});

export interface ProcessAuth {
  /** The session behind a request's cookies, cached under a hash of them. */
  session(cookie: string, load: () => Promise<SessionInfo | null>): Promise<SessionInfo | null>;
  /** `resolveTeam`, cached per user and chosen team. */
  team(db: Db, userId: string, activeTeamId: string | null): Promise<ActiveTeam | null>;
  /** The session held for these cookies (null: held as none), undefined when nothing is held. */
  peekSession(cookie: string): SessionInfo | null | undefined;
  /** The team held for this user and chosen team, undefined when nothing is held. */
  peekTeam(userId: string, activeTeamId: string | null): ActiveTeam | null | undefined;
  /**
   * Forget what this process and every other one hold about a user or a session: after anything
   * that changes who someone is or what they may do (membership, role, sign-out, team switch).
   * Local forgetting is immediate; if the publish fails the others are left to the bound.
   */
  forget(revocation: Revocation): Promise<void>;
}

/**
 * One web process's authorization cache. Its first use starts listening on `AUTH_FORGET_CHANNEL`
 * without waiting for Redis: while Redis is unreachable (or before it confirms) requests are
 * still served, and revocations made in other processes then take effect within `ttlMs`.
 */
export function createProcessAuth(deps: {
  hub: PubSubHub;
  publish: (channel: string, message: string) => Promise<unknown>;
  ttlMs: number;
  now?: () => number;
}): ProcessAuth {
  const sessions = new AuthCache<SessionInfo | null>(deps.ttlMs, 10_000, deps.now);
  const teams = new AuthCache<ActiveTeam | null>(deps.ttlMs, 10_000, deps.now);
  const forgetHere = (r: Revocation) => {
    if (r.userId || r.sessionId) {
      sessions.forget(r);
      teams.forget(r);
    }
    for (const listener of revocationListeners.values()) listener(r);
  };
  let listening: Promise<unknown> | null = null;
  const listen = () =>
    (listening ??= deps.hub
      .listen(AUTH_FORGET_CHANNEL, (message) => {
        try {
          const parsed = ForgetSchema.safeParse(JSON.parse(message));
          if (parsed.success) forgetHere(parsed.data);
        } catch {
          // not JSON: not ours
        }
      })
      .catch(() => null));
  const cookieKey = (cookie: string) => createHash('sha256').update(cookie).digest('base64url');
  const teamKey = (userId: string, activeTeamId: string | null) =>
    `${userId}\u0000${activeTeamId ?? ''}`;

  return {
    session(cookie, load) {
      listen();
      return sessions.get(cookieKey(cookie), load, (v) => ({
        userId: v?.user.id ?? null,
        sessionId: v?.sessionId ?? null,
      }));
    },
    team(db, userId, activeTeamId) {
      listen();
      return teams.get(
        teamKey(userId, activeTeamId),
        () => resolveTeam(db, userId, activeTeamId),
        () => ({ userId, sessionId: null }),
      );
    },
    peekSession: (cookie) => sessions.peek(cookieKey(cookie)),
    peekTeam: (userId, activeTeamId) => teams.peek(teamKey(userId, activeTeamId)),
    async forget(r) {
      if (!r.userId && !r.sessionId && !r.shareLinkId && !r.teamId) return;
      forgetHere(r);
      const message = {
        userId: r.userId ?? null,
        sessionId: r.sessionId ?? null,
        shareLinkId: r.shareLinkId ?? null,
        teamId: r.teamId ?? null,
      };
      await deps.publish(AUTH_FORGET_CHANNEL, JSON.stringify(message)).catch(() => {});
    },
  };
}
