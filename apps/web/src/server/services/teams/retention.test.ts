import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintainStorage, toJson, type Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';

/** A summary as the worker writes it (Run.summary parses to RunSummary; a partial object reads as null). */
const SUMMARY = {
  requests: 5,
  failed: 0,
  errorRate: 0,
  rps: 5,
  durationMs: 1000,
  seconds: 1,
  bytesSent: 1,
  bytesReceived: 1,
  iterations: 5,
  droppedIterations: 0,
  vusMax: 1,
  statusCounts: { '200': 5 },
  latency: { count: 5, min: 1, mean: 2, stdev: 1, p50: 2, p90: 3, p95: 3, p99: 4, p999: 4, max: 4 },
  waiting: null,
  connecting: null,
  tlsHandshaking: null,
  blocked: null,
  iteration: null,
  resources: {
    cpuMeanPercent: null,
    cpuPeakPercent: null,
    rssMeanBytes: null,
    rssPeakBytes: null,
    poolWaitMsMean: null,
    poolWaitMsPeak: null,
    poolInUsePeak: null,
    poolAcquireTimeouts: null,
    dbConnectionsPeak: null,
    dbNewConnsTotal: null,
    dbTooManyClients: null,
  },
};

describe('team retention of per-second data (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  let B: TeamFixture;

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_retention'));
    services = makeServices();
    A = await makeTeam(db, 'ra');
    B = await makeTeam(db, 'rb');
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('only admins set it; values are checked by name; it applies to the caller team alone', async () => {
    const viewer = callerFor(db, services, A.users.viewer, A.teamId);
    const member = callerFor(db, services, A.users.member, A.teamId);
    const admin = callerFor(db, services, A.users.admin, A.teamId);
    expect(await viewer.team.retention()).toEqual({ retentionDays: null, prunedRuns: 0 });
    await expect(member.team.setRetention({ retentionDays: 30 })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(admin.team.setRetention({ retentionDays: 0 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('retentionDays'),
    });
    await expect(admin.team.setRetention({ retentionDays: 1.5 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(admin.team.setRetention({ retentionDays: 40_000 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await admin.team.setRetention({ retentionDays: 30 })).toEqual({
      retentionDays: 30,
      prunedRuns: 0,
    });
    expect((await db.team.findUniqueOrThrow({ where: { id: B.teamId } })).retentionDays).toBeNull();
  });

  it('the maintenance pass prunes the expired run; the run page says so and still has its summary', async () => {
    const runId = A.runIds[0]!;
    const old = new Date(Date.now() - 45 * 86_400_000);
    await db.run.update({
      where: { id: runId },
      data: {
        status: 'succeeded',
        startedAt: old,
        finishedAt: old,
        summary: toJson.runSummary(SUMMARY),
      },
    });
    await db.runSecond.create({
      data: {
        runId,
        second: 0,
        ts: old,
        requests: 5,
        failed: 0,
        statusCounts: {},
        bytesSent: 0n,
        bytesReceived: 0n,
        iterations: 5,
        droppedIterations: 0,
        vus: 1,
        vusMax: 1,
      },
    });
    const bRun = B.runIds[0]!;
    await db.run.update({
      where: { id: bRun },
      data: { status: 'succeeded', startedAt: old, finishedAt: old },
    });
    await db.runSecond.create({
      data: {
        runId: bRun,
        second: 0,
        ts: old,
        requests: 5,
        failed: 0,
        statusCounts: {},
        bytesSent: 0n,
        bytesReceived: 0n,
        iterations: 5,
        droppedIterations: 0,
        vus: 1,
        vusMax: 1,
      },
    });

    const m = await maintainStorage(db);
    expect(m.skipped).toBe(false);
    expect(m.pruned).toMatchObject({ runs: 1, seconds: 1 });
    const caller = callerFor(db, services, A.users.viewer, A.teamId);
    const run = await caller.run.get({ id: runId });
    expect(run.secondsPrunedAt).toBeInstanceOf(Date);
    expect(run.summary).toMatchObject({ requests: 5, latency: { p99: 4 } });
    expect(await caller.team.retention()).toEqual({ retentionDays: 30, prunedRuns: 1 });
    expect(await db.runSecond.count({ where: { runId: bRun } })).toBe(1); // team B keeps everything
  });
});
