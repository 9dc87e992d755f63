import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { createPubSubHub, producerConnection, workerConnection } from '@poolbench/queue';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { watchViewer } from '../runs/watch-viewer';
import { AUTH_CACHE_MAX_MS, createProcessAuth, type ProcessAuth } from './auth-cache';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';

/**
 * Revocation against the authorization cache of two web processes sharing Postgres and Redis: an
 * admin acts in one, the member they act on is served by the other. Each process has its own
 * clock, frozen unless a test moves it, so a revocation that takes effect without the clock
 * moving took effect through the message, not through expiry.
 */
describe('authorization cache: revocation across web processes (real Postgres and Redis)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  const pub = producerConnection(REDIS_URL);
  const hubs = [
    createPubSubHub(() => workerConnection(REDIS_URL)),
    createPubSubHub(() => workerConnection(REDIS_URL)),
  ];
  let t = 0;
  const proc = (i: 0 | 1): ProcessAuth =>
    createProcessAuth({
      hub: hubs[i]!,
      publish: (channel, message) => pub.publish(channel, message),
      ttlMs: AUTH_CACHE_MAX_MS,
      now: () => t,
    });
  const ctxOf = (p: ProcessAuth) => ({
    resolveTeam: (d: Db, userId: string, teamId: string | null) => p.team(d, userId, teamId),
    forgetAuth: p.forget,
  });
  const refusedWithin = async (call: () => Promise<unknown>, ms = 10_000) => {
    const end = Date.now() + ms;
    for (;;) {
      try {
        await call();
      } catch (e) {
        return e;
      }
      if (Date.now() > end) throw new Error('still allowed: the revocation never arrived');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_auth_revocation'));
    services = makeServices();
  });
  afterAll(async () => {
    await Promise.all(hubs.map((h) => h.close()));
    pub.disconnect();
    await services?.close();
    await dispose?.();
  });

  async function twoProcesses(label: string) {
    const team: TeamFixture = await makeTeam(db, label);
    const [admin, served] = [proc(0), proc(1)];
    const adminCaller = callerFor(db, services, team.users.owner, team.teamId, ctxOf(admin));
    const memberCaller = callerFor(db, services, team.users.member, team.teamId, ctxOf(served));
    return { team, served, adminCaller, memberCaller };
  }

  it('a removed member is refused by the other process at once, the clock not moving', async () => {
    const { team, adminCaller, memberCaller } = await twoProcesses('removed');
    await memberCaller.run.list({}); // cached as a member in the serving process
    await adminCaller.team.removeMember({ membershipId: team.users.member.membershipId });
    const refusal = await refusedWithin(() => memberCaller.run.list({}));
    expect(refusal).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a demoted member loses the member actions at once, and keeps reading', async () => {
    const { team, adminCaller, memberCaller } = await twoProcesses('demoted');
    const runId = team.runIds[0]!;
    await memberCaller.run.updateNotes({ id: runId, notes: 'as member' });
    await adminCaller.team.changeRole({
      membershipId: team.users.member.membershipId,
      role: 'viewer',
    });
    const refusal = await refusedWithin(() =>
      memberCaller.run.updateNotes({ id: runId, notes: 'as viewer' }),
    );
    expect(refusal).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/viewer/) });
    await expect(memberCaller.run.list({})).resolves.toBeDefined();
  });

  it('a change nobody announced (straight in the database) takes effect at the bound, not before', async () => {
    const { team, memberCaller } = await twoProcesses('silent');
    t = 1_000_000;
    await memberCaller.run.list({});
    await db.membership.delete({ where: { id: team.users.member.membershipId } });
    t += AUTH_CACHE_MAX_MS - 1;
    await expect(memberCaller.run.list({})).resolves.toBeDefined(); // the documented window
    t += 1;
    await expect(memberCaller.run.list({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a session forgotten in one process (sign-out) is looked up again in the other', async () => {
    const [a, b] = [proc(0), proc(1)];
    let lookups = 0;
    const load = () =>
      Promise.resolve({
        user: { id: 'u-signout', name: 'u', email: 'u@example.test' },
        sessionId: 'sess-signout',
        activeTeamId: null,
      });
    const lookup = () => {
      lookups++;
      return load();
    };
    await b.session('cookie=1', lookup);
    await b.session('cookie=1', lookup);
    expect(lookups).toBe(1);
    await a.forget({ sessionId: 'sess-signout' });
    const end = Date.now() + 10_000;
    while (lookups === 1 && Date.now() < end) {
      await b.session('cookie=1', lookup);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(lookups).toBe(2);
  });

  it('a message that is not a revocation changes nothing', async () => {
    const p = proc(1);
    let lookups = 0;
    const lookup = () => {
      lookups++;
      return Promise.resolve(null);
    };
    await p.session('cookie=2', lookup);
    await pub.publish('poolbench:auth:forget', 'not json');
    await pub.publish('poolbench:auth:forget', JSON.stringify({ userId: 42 }));
    await new Promise((r) => setTimeout(r, 200));
    await p.session('cookie=2', lookup);
    expect(lookups).toBe(1);
  });

  /** Milliseconds until the controller aborts (the stream's end), failing past `ms`. */
  const abortedWithin = (c: AbortController, ms: number) =>
    new Promise<number>((resolve, reject) => {
      const t0 = Date.now();
      const timer = setTimeout(() => reject(new Error(`still streaming after ${ms} ms`)), ms);
      c.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(Date.now() - t0);
      });
    });

  it("a removed member's live stream in the other process ends within 3 s, the clock not moving", async () => {
    const { team, served, adminCaller } = await twoProcesses('live-removed');
    const member = team.users.member;
    const live = new AbortController();
    watchViewer({
      userId: member.id,
      sessionId: member.sessionId,
      teamId: team.teamId,
      controller: live,
      stillAllowed: async () => (await served.team(db, member.id, team.teamId))?.id === team.teamId,
    });
    await new Promise((r) => setTimeout(r, 1500)); // still allowed across its own checks
    expect(live.signal.aborted).toBe(false);
    const ended = abortedWithin(live, 3000);
    await adminCaller.team.removeMember({ membershipId: member.membershipId });
    await expect(ended).resolves.toBeLessThan(3000);
  });

  it("a signed-out session's live stream in the other process ends within 3 s", async () => {
    const [a, b] = [proc(0), proc(1)];
    let signedOut = false;
    const load = () =>
      Promise.resolve(
        signedOut
          ? null
          : {
              user: { id: 'u-live', name: 'u', email: 'u@example.test' },
              sessionId: 'sess-live',
              activeTeamId: null,
            },
      );
    const live = new AbortController();
    watchViewer({
      userId: 'u-live',
      sessionId: 'sess-live',
      teamId: 'team-live',
      controller: live,
      stillAllowed: async () => (await b.session('cookie=live', load))?.sessionId === 'sess-live',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(live.signal.aborted).toBe(false);
    const ended = abortedWithin(live, 3000);
    signedOut = true; // the session row is gone; process b still holds the answer until told
    await a.forget({ sessionId: 'sess-live' });
    await expect(ended).resolves.toBeLessThan(3000);
  });
});
