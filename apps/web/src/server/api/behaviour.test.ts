import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import type { AppError } from '@poolbench/contracts/errors';
import { openSecret, type Db } from '@poolbench/db';
import { ScenarioSchema } from '@poolbench/scenarios';
import { createPubSubHub, workerConnection, publishRunEvent } from '@poolbench/queue';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, openRanges, type TeamFixture } from '~/test/fixtures';
import { runEventStream } from '../services/runs/run-event-stream';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';

describe('procedures against real Postgres and Redis', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_behaviour'));
    services = makeServices();
    A = await makeTeam(db, 'a');
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('launch writes the runs first and enqueues one job per run (jobId = runId)', async () => {
    const caller = callerFor(db, services, A.users.member, A.teamId);
    const backlog = await db.run.count({ where: { teamId: A.teamId, status: 'queued' } });
    expect(backlog).toBeGreaterThan(0); // the fixture's own queued runs
    const launched = await caller.experiment.launch({
      name: 'exp',
      targetId: A.targetId,
      poolConfigIds: [A.poolConfigId],
      scenarioIds: [A.scenarioId],
      repeats: 3,
    });
    expect(launched.runIds).toHaveLength(3);
    const jobs = (await services.queue.getJobs(['waiting', 'prioritized'])).filter((j) =>
      launched.runIds.includes(j.id!),
    );
    expect(jobs.map((j) => j.id).sort()).toEqual([...launched.runIds].sort());
    // fair queueing: the team's queued backlog comes first, then these runs in execution order
    expect(launched.runIds.map((id) => jobs.find((j) => j.id === id)!.opts.priority)).toEqual([
      backlog + 1,
      backlog + 2,
      backlog + 3,
    ]);
    const est = await caller.experiment.estimate({
      poolConfigIds: [A.poolConfigId],
      scenarioIds: [A.scenarioId],
      repeats: 3,
    });
    expect(est).toMatchObject({ runCount: 3, loadMs: 3 * 6000, overheadMs: 15_000 });
  });

  it('cancel: a queued run becomes canceled and its job disappears; a finished run is a conflict', async () => {
    const caller = callerFor(db, services, A.users.member, A.teamId);
    const { runIds } = await caller.experiment.launch({
      name: 'to cancel',
      targetId: A.targetId,
      poolConfigIds: [A.poolConfigId],
      scenarioIds: [A.scenarioId],
      repeats: 1,
    });
    const runId = runIds[0]!;
    expect(await services.queue.getJob(runId)).toBeTruthy();
    expect(await caller.run.cancel({ id: runId })).toEqual({ status: 'canceled' });
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe('canceled');
    expect(await services.queue.getJob(runId)).toBeFalsy();
    await expect(caller.run.cancel({ id: runId })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('cancel of a running run sets the flag and tells the worker over Redis', async () => {
    const caller = callerFor(db, services, A.users.member, A.teamId);
    const runId = A.runIds[0]!;
    await db.run.update({
      where: { id: runId },
      data: { status: 'running', startedAt: new Date() },
    });
    const sub = workerConnection(REDIS_URL);
    const got: string[] = [];
    sub.on('message', (_ch, msg) => got.push(msg));
    await sub.subscribe('poolbench:run-control');
    expect(await caller.run.cancel({ id: runId })).toEqual({ status: 'cancel_requested' });
    await new Promise((r) => setTimeout(r, 200));
    sub.disconnect();
    expect(got.map((m) => JSON.parse(m))).toContainEqual({ type: 'cancel', runId });
    expect(
      (await db.run.findUniqueOrThrow({ where: { id: runId } })).cancelRequestedAt,
    ).not.toBeNull();
  });

  it('a NUL character anywhere in an input is a bad request naming its field', async () => {
    const admin = callerFor(db, services, A.users.admin, A.teamId);
    const before = await db.target.count({ where: { teamId: A.teamId } });
    const err = await admin.target
      .create({
        kind: 'managed',
        name: 'Lab',
        requestDefaults: { method: 'GET', path: '/work', query: { ms: '1\u0000' } },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe('BAD_REQUEST');
    expect(((err as TRPCError).cause as AppError).problems).toEqual([
      { path: 'requestDefaults.query.ms', message: 'must not contain a NUL character (U+0000)' },
    ]);
    expect(await db.target.count({ where: { teamId: A.teamId } })).toBe(before);
  });

  it('URL targets: hosts must be allowed; secret values are sealed and never returned', async () => {
    const admin = callerFor(db, services, A.users.admin, A.teamId);
    const input = {
      kind: 'url' as const,
      name: 'Orders API',
      baseUrls: ['https://orders.internal.test'],
      requestDefaults: { method: 'GET' as const, path: '/orders' },
      headers: [
        { name: 'Authorization', value: 'Bearer s3cret', secret: true },
        { name: 'X-Env', value: 'staging', secret: false },
      ],
      monitorDsn: 'postgresql://monitor:pw@db.internal.test/app',
    };
    const denied = await admin.target.create(input).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(TRPCError);
    expect((denied as TRPCError).code).toBe('FORBIDDEN');
    expect((denied as TRPCError).message).toContain(
      'orders.internal.test is not on the team allowlist',
    );

    await admin.team.allow({ pattern: '*.internal.test' });
    const created = await admin.target.create(input);
    expect(JSON.stringify(created)).not.toContain('s3cret');
    expect(JSON.stringify(await admin.target.get({ id: created.id }))).not.toContain('s3cret');
    expect(created.secretHeaderNames).toEqual(['Authorization']);
    expect(created.hasMonitorDsn).toBe(true);
    const row = await db.target.findUniqueOrThrow({ where: { id: created.id } });
    expect(Buffer.from(row.secretsEncrypted!).toString('utf8')).not.toContain('s3cret');
    expect(openSecret(row.secretsEncrypted!, services.key)).toEqual({
      headers: { Authorization: 'Bearer s3cret' },
      monitorDsn: 'postgresql://monitor:pw@db.internal.test/app',
    });

    // editing without replacing secrets keeps the sealed blob as it was
    await admin.target.update({
      id: created.id,
      target: {
        ...input,
        name: 'Orders API v2',
        headers: [{ name: 'Authorization', value: '', secret: true }],
        monitorDsn: '',
      },
    });
    const after = await db.target.findUniqueOrThrow({ where: { id: created.id } });
    expect(after.name).toBe('Orders API v2');
    expect(Buffer.from(after.secretsEncrypted!)).toEqual(Buffer.from(row.secretsEncrypted!));
  });

  it('a managed data set past the installation cap is refused at save, naming cells and disk', async () => {
    const admin = callerFor(db, services, A.users.admin, A.teamId);
    const lab = (rows: number, fields: number, name: string) =>
      admin.target.create({
        kind: 'managed',
        name,
        requestDefaults: { method: 'GET', path: '/health' },
        setup: { rows, fields, roles: 50, permissions: 200, shards: 4 },
      });
    await expect(lab(5_000_000, 200, 'huge lab')).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(
        /setup\.rows: 5,000,000 rows × 200 fields = 1,000,000,000 cells \(about 84 GB on the lab database server\) is more than this installation allows/,
      ),
    });
    await expect(lab(100_000, 100, 'large lab')).resolves.toMatchObject({ name: 'large lab' });
  });

  it('test connection probes the readiness path of an allowed URL target once and reports what it saw', async () => {
    // a stand-in for the user's service on loopback
    const seen: Array<{ url?: string; auth?: string }> = [];
    const server = createServer((req, res) => {
      seen.push({ url: req.url, auth: req.headers.authorization });
      res.writeHead(204, { 'X-Probe': 'yes' }).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const admin = callerFor(db, services, A.users.admin, A.teamId);
    await openRanges(db, services, ['127.0.0.0/8']);
    await admin.team.allow({ pattern: '127.0.0.0/8' });
    const t = await admin.target.create({
      kind: 'url',
      name: 'Local API',
      baseUrls: [`http://127.0.0.1:${port}`],
      requestDefaults: { method: 'GET', path: '/orders' },
      readinessPath: '/ready',
      headers: [{ name: 'Authorization', value: 'Bearer hidden', secret: true }],
    });
    const r = await callerFor(db, services, A.users.member, A.teamId).target.testConnection({
      id: t.id,
    });
    server.close();
    expect(r).toMatchObject({ kind: 'url', ok: true, status: 204, error: null });
    if (r.kind !== 'url') throw new Error('expected a URL probe');
    expect(r.headers).toContainEqual(['x-probe', 'yes']);
    expect(r.note).toContain('without the secret headers (Authorization)');
    expect(seen).toEqual([{ url: '/ready', auth: undefined }]);
    // a managed target is not probed: the worker starts it per run
    expect(await admin.target.testConnection({ id: A.targetId })).toMatchObject({
      kind: 'managed',
    });
  });

  it('invitation links: the token is shown once, stored hashed, and joins the team as the invited role', async () => {
    const admin = callerFor(db, services, A.users.admin, A.teamId);
    const inv = await admin.team.invite({ role: 'viewer' });
    const stored = await db.invitation.findUniqueOrThrow({ where: { id: inv.id } });
    expect(stored.tokenHash).not.toContain(inv.token);
    await db.user.create({ data: { id: 'newbie', name: 'Newbie', email: 'newbie@example.test' } });
    await db.session.create({
      data: {
        id: 's-newbie',
        token: 't-newbie',
        userId: 'newbie',
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    const newbie = callerFor(db, services, {
      id: 'newbie',
      email: 'newbie@example.test',
      sessionId: 's-newbie',
    });
    expect(await newbie.team.invitation({ token: inv.token })).toMatchObject({
      role: 'viewer',
      accepted: false,
    });
    await newbie.team.acceptInvitation({ token: inv.token });
    expect((await db.session.findUniqueOrThrow({ where: { id: 's-newbie' } })).activeTeamId).toBe(
      A.teamId,
    );
    await expect(newbie.team.acceptInvitation({ token: inv.token })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const asViewer = callerFor(
      db,
      services,
      { id: 'newbie', email: 'newbie@example.test', sessionId: 's-newbie' },
      A.teamId,
    );
    expect((await asViewer.team.me()).active).toMatchObject({ id: A.teamId, role: 'viewer' });
  });

  it('an invitation sent to an address: another account learns nothing; the address must be verified', async () => {
    const admin = callerFor(db, services, A.users.admin, A.teamId);
    const inv = await admin.team.invite({ role: 'admin', email: 'Invited@Example.test' });
    for (const [id, email] of [
      ['squatter', 'invited@example.test'],
      ['bearer', 'bearer@example.test'],
    ] as const) {
      await db.user.create({ data: { id, name: id, email } });
      await db.session.create({
        data: {
          id: `s-${id}`,
          token: `t-${id}`,
          userId: id,
          expiresAt: new Date(Date.now() + 3600_000),
        },
      });
    }
    // someone else holding the link: refused without being told the invited address
    const bearer = callerFor(db, services, {
      id: 'bearer',
      email: 'bearer@example.test',
      sessionId: 's-bearer',
      emailVerified: true,
    });
    const wrong = await bearer.team.acceptInvitation({ token: inv.token }).catch((e: Error) => e);
    expect(wrong).toMatchObject({ code: 'FORBIDDEN' });
    expect((wrong as Error).message).toMatch(/sent to another email address/);
    expect((wrong as Error).message.toLowerCase()).not.toContain('invited@example.test');
    // an account signed up under the invited address, not verified: refused until it is
    const unverified = callerFor(db, services, {
      id: 'squatter',
      email: 'invited@example.test',
      sessionId: 's-squatter',
      emailVerified: false,
    });
    await expect(unverified.team.acceptInvitation({ token: inv.token })).rejects.toThrow(
      /verify your email address first/,
    );
    expect(await db.membership.count({ where: { teamId: A.teamId, userId: 'squatter' } })).toBe(0);
    const verified = callerFor(db, services, {
      id: 'squatter',
      email: 'invited@example.test',
      sessionId: 's-squatter',
      emailVerified: true,
    });
    await verified.team.acceptInvitation({ token: inv.token });
    expect(
      (await db.membership.findFirstOrThrow({ where: { teamId: A.teamId, userId: 'squatter' } }))
        .role,
    ).toBe('admin');
  });

  it('pool config inputs are validated with the shared schema, with field paths', async () => {
    const member = callerFor(db, services, A.users.member, A.teamId);
    const err = (await member.poolConfig
      .create({
        targetId: A.targetId,
        name: 'bad',
        config: { strategy: 'elastic' as const, params: { minConns: 50, maxConns: 10 } },
      })
      .catch((e: unknown) => e)) as TRPCError;
    expect(err.code).toBe('BAD_REQUEST');
  });

  it('archiving keeps the name on the archived row and frees it; two live rows still cannot share one', async () => {
    const member = callerFor(db, services, A.users.member, A.teamId);
    const config = { strategy: 'prewarm' as const, params: {} };
    const first = await member.poolConfig.create({
      targetId: A.targetId,
      name: 'reused name',
      config,
    });
    await expect(
      member.poolConfig.create({ targetId: A.targetId, name: 'reused name', config }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('"reused name"'),
    });
    await member.poolConfig.archive({ id: first.id });
    expect((await db.poolConfig.findUniqueOrThrow({ where: { id: first.id } })).name).toBe(
      'reused name',
    );
    const second = await member.poolConfig.create({
      targetId: A.targetId,
      name: 'reused name',
      config,
    });
    expect(second.id).not.toBe(first.id);
    const copy = await member.poolConfig.duplicate({ id: second.id });
    expect(copy.name).toBe('reused name (copy)');

    const scenario = ScenarioSchema.parse(
      (await member.scenario.get({ id: A.scenarioId })).scenario,
    );
    const kept = await member.scenario.create({ name: 'kept name', scenario });
    await member.scenario.archive({ id: kept.id });
    expect((await db.scenario.findUniqueOrThrow({ where: { id: kept.id } })).name).toBe(
      'kept name',
    );
    expect((await member.scenario.create({ name: 'kept name', scenario })).id).not.toBe(kept.id);
  });

  it('the SSE stream sends the stored points, then live events, and ends on a terminal status', async () => {
    const runId = A.runIds[1]!;
    await db.run.update({ where: { id: runId }, data: { status: 'running' } });
    await db.runSecond.create({
      data: {
        runId,
        second: 0,
        ts: new Date(),
        requests: 5,
        failed: 0,
        statusCounts: { '200': 5 },
        bytesSent: 0n,
        bytesReceived: 0n,
        iterations: 5,
        droppedIterations: 0,
        vus: 2,
        vusMax: 2,
        p99Ms: 3,
      },
    });
    await db.resourceSample.create({
      data: {
        runId,
        second: 0,
        instance: -1,
        ts: new Date(),
        cpuPercent: 12.5,
        rssBytes: 1024n,
        poolInUse: 1,
      },
    });
    const abort = new AbortController();
    const hub = createPubSubHub(() => workerConnection(REDIS_URL));
    const stream = runEventStream({ db, hub }, A.teamId, runId, abort.signal);
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await readUntil('event: snapshot');
    await readUntil('\n\n');
    expect(text).toContain('"cpuPercent":12.5');
    const pub = workerConnection(REDIS_URL);
    const point = {
      second: 1,
      requests: 7,
      failed: 0,
      statusCounts: { '200': 7 },
      droppedIterations: 0,
      vus: 2,
      p50Ms: 1,
      p95Ms: 2,
      p99Ms: 3,
      maxMs: 4,
      meanMs: 1,
      connectingP95Ms: null,
      blockedP95Ms: null,
      cpuPercent: null,
      rssBytes: null,
      poolInUse: null,
      poolIdle: null,
      poolTotal: null,
      poolWaitCount: null,
      poolWaitMs: null,
      dbActive: null,
      dbIdle: null,
      dbTotal: null,
      dbNewConns: null,
    };
    await publishRunEvent(pub, { type: 'second', runId, atMs: Date.now(), point });
    await readUntil('event: second');
    await publishRunEvent(pub, { type: 'status', runId, status: 'succeeded', atMs: Date.now() });
    await readUntil('event: status');
    // the stream closes by itself after the terminal status
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    pub.disconnect();
    expect(text).toMatch(/event: second\ndata: .*"requests":7/);
    // the closed stream let go of the run's channel
    expect(hub.channels()).toEqual([]);
    await hub.close();
  });
});
