import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from './client';
import { migrate, MIGRATIONS_DIR } from './migrate';
import {
  dropEmptyOldPartitions,
  ensureMonthPartition,
  listPartitions,
  maintainStorage,
  pruneExpiredSeconds,
} from './storage-maintenance';
import { withTempDatabase } from './test-db';
import { secondsTsBounds } from './seconds-bounds';

const PARTITIONING = '20261124000900_partition_per_second';
const DAY = 86_400_000;

async function makeRun(
  db: Db,
  teamId: string,
  targetId: string,
  opts: { finishedAt?: Date | null; startedAt: Date; seconds: number; name?: string },
) {
  const exp = await db.experiment.create({
    data: { teamId, targetId, name: opts.name ?? 'storage', repeats: 1 },
  });
  const run = await db.run.create({
    data: {
      teamId,
      experimentId: exp.id,
      targetId,
      repeatIndex: 0,
      sequence: 0,
      poolConfigSnapshot: {},
      scenarioSnapshot: {},
      targetSnapshot: {},
      status: opts.finishedAt ? 'succeeded' : 'running',
      startedAt: opts.startedAt,
      finishedAt: opts.finishedAt ?? null,
      summary: { requests: opts.seconds * 10 },
      durationHist: Buffer.from([1, 2, 3]),
    },
  });
  const ts = (i: number) => new Date(opts.startedAt.getTime() + i * 1000);
  await db.runSecond.createMany({
    data: Array.from({ length: opts.seconds }, (_, i) => ({
      runId: run.id,
      second: i,
      ts: ts(i),
      requests: 10,
      failed: 0,
      statusCounts: { 200: 10 },
      bytesSent: 100n,
      bytesReceived: 200n,
      iterations: 10,
      droppedIterations: 0,
      vus: 1,
      vusMax: 1,
      durationHist: Buffer.from([i % 256]),
    })),
  });
  await db.resourceSample.createMany({
    data: Array.from({ length: opts.seconds }, (_, i) => ({
      runId: run.id,
      second: i,
      instance: -1,
      ts: ts(i),
      cpuPercent: 5,
    })),
  });
  return run;
}

const partitionOf = async (db: Db, table: string, runId: string) =>
  (
    await db.$queryRawUnsafe<Array<{ p: string }>>(
      `SELECT DISTINCT tableoid::regclass::text AS p FROM "${table}" WHERE "runId" = $1 ORDER BY 1`,
      runId,
    )
  ).map((r) => r.p.replaceAll('"', ''));

describe('per-second storage partitioned by month', () => {
  let db: Db;
  let url: string;
  let dispose: () => Promise<void>;
  let before: string;
  let team: { teamId: string; targetId: string };
  let oldRunId = '';
  const now = new Date();
  const september = new Date(Date.UTC(now.getUTCFullYear() - 1, 8, 30, 23, 59, 50)); // crosses into October

  beforeAll(async () => {
    // A database from before partitioning, with rows in it, upgraded by the migration.
    before = mkdtempSync(join(tmpdir(), 'pb-mig-before-'));
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    rmSync(join(before, PARTITIONING), { recursive: true });
    ({ url, dispose } = await withTempDatabase('partitions', { migrationsDir: before }));
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const old = await seedWithOldClient(c);
    team = { teamId: old.teamId, targetId: old.targetId };
    oldRunId = old.runId;
    await c.end();
    expect((await migrate({ url })).applied).toEqual([PARTITIONING]);
    db = createDb({ url, max: 4 });
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
    rmSync(before, { recursive: true, force: true });
  });

  // Before the migration this build's client does not match the tables (new columns, ts in the
  // keys), so the old rows are written with SQL, as an older build would have written them.
  async function seedWithOldClient(
    c: pg.Client,
  ): Promise<{ teamId: string; targetId: string; runId: string }> {
    await c.query(
      `INSERT INTO "Team" (id, name, slug, "updatedAt") VALUES ('team_old', 'Old', 'old', now())`,
    );
    await c.query(
      `INSERT INTO "Target" (id, "teamId", name, kind, "requestDefaults", "updatedAt") VALUES ('target_old', 'team_old', 'lab', 'url', '{}', now())`,
    );
    await c.query(
      `INSERT INTO "Experiment" (id, "teamId", "targetId", name, repeats, "updatedAt") VALUES ('exp_old', 'team_old', 'target_old', 'old', 1, now())`,
    );
    await c.query(
      `INSERT INTO "Run" (id, "teamId", "experimentId", "targetId", "repeatIndex", sequence, "poolConfigSnapshot", "scenarioSnapshot", "targetSnapshot", status, "startedAt", "finishedAt", "updatedAt")
       VALUES ('run_old', 'team_old', 'exp_old', 'target_old', 0, 0, '{}', '{}', '{}', 'succeeded', $1, $1::timestamptz + interval '20 seconds', now())`,
      [september],
    );
    for (let i = 0; i < 20; i++) {
      const ts = new Date(september.getTime() + i * 1000);
      await c.query(
        `INSERT INTO "RunSecond" ("runId", second, ts, requests, failed, "statusCounts", "bytesSent", "bytesReceived", iterations, "droppedIterations", vus, "vusMax")
         VALUES ('run_old', $1, $2, 10, 0, '{}', 0, 0, 10, 0, 1, 1)`,
        [i, ts],
      );
      await c.query(
        `INSERT INTO "ResourceSample" ("runId", second, instance, ts, "cpuPercent") VALUES ('run_old', $1, -1, $2, 1)`,
        [i, ts],
      );
    }
    return { teamId: 'team_old', targetId: 'target_old', runId: 'run_old' };
  }

  it('the upgrade keeps every row and files each into its month (a run across midnight of a month end spans two)', async () => {
    expect(await db.runSecond.count({ where: { runId: oldRunId } })).toBe(20);
    expect(await db.resourceSample.count({ where: { runId: oldRunId } })).toBe(20);
    const y = september.getUTCFullYear();
    expect(await partitionOf(db, 'RunSecond', oldRunId)).toEqual([
      `RunSecond_p${y}09`,
      `RunSecond_p${y}10`,
    ]);
    expect(await partitionOf(db, 'ResourceSample', oldRunId)).toEqual([
      `ResourceSample_p${y}09`,
      `ResourceSample_p${y}10`,
    ]);
    // and the current month plus two ahead are ready
    const names = (await listPartitions(db)).map((p) => p.name);
    for (let k = 0; k <= 2; k++) {
      const m = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1));
      expect(names).toContain(
        `RunSecond_p${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, '0')}`,
      );
    }
  });

  it('the worker write path (createMany, skipDuplicates) is idempotent on the partitioned key', async () => {
    const run = await makeRun(db, team.teamId, team.targetId, {
      startedAt: new Date(now.getTime() - 60_000),
      seconds: 5,
      finishedAt: now,
    });
    const again = await db.runSecond.findMany({ where: { runId: run.id } });
    const r = await db.runSecond.createMany({
      data: again.map(
        ({
          runId,
          second,
          segment,
          ts,
          requests,
          failed,
          bytesSent,
          bytesReceived,
          iterations,
          droppedIterations,
          vus,
          vusMax,
        }) => ({
          runId,
          second,
          segment,
          ts,
          requests,
          failed,
          statusCounts: {},
          bytesSent,
          bytesReceived,
          iterations,
          droppedIterations,
          vus,
          vusMax,
        }),
      ),
      skipDuplicates: true,
    });
    expect(r.count).toBe(0);
    expect(await db.runSecond.count({ where: { runId: run.id } })).toBe(5);
  });

  it('a row beyond every partition lands in the default partition, and moves out when its month is made', async () => {
    const far = new Date(Date.UTC(2031, 4, 10));
    const run = await makeRun(db, team.teamId, team.targetId, {
      startedAt: far,
      seconds: 3,
      finishedAt: new Date(far.getTime() + 3000),
    });
    expect(await partitionOf(db, 'RunSecond', run.id)).toEqual(['RunSecond_default']);
    expect(await ensureMonthPartition(db, 'RunSecond', far)).toBe('RunSecond_p203105');
    expect(await ensureMonthPartition(db, 'RunSecond', far)).toBe('RunSecond_p203105'); // idempotent
    expect(await partitionOf(db, 'RunSecond', run.id)).toEqual(['RunSecond_p203105']);
    expect(await db.runSecond.count({ where: { runId: run.id } })).toBe(3);
    await db.run.delete({ where: { id: run.id } }); // the foreign key cascades into partitions too
    expect(await db.runSecond.count({ where: { runId: run.id } })).toBe(0);
    expect(await db.resourceSample.count({ where: { runId: run.id } })).toBe(0);
  });

  it("retention removes only expired runs' seconds of teams that set it, and keeps their summaries", async () => {
    const other = await db.team.create({
      data: { name: 'Keeps everything', slug: `keep-${Date.now()}` },
    });
    const otherTarget = await db.target.create({
      data: {
        teamId: other.id,
        name: 'u',
        kind: 'url',
        baseUrls: ['http://127.0.0.1:1'],
        requestDefaults: {},
        secretHeaderNames: [],
      },
    });
    await db.team.update({ where: { id: team.teamId }, data: { retentionDays: 30 } });
    const expired = await makeRun(db, team.teamId, team.targetId, {
      startedAt: new Date(now.getTime() - 41 * DAY),
      finishedAt: new Date(now.getTime() - 40 * DAY),
      seconds: 4,
    });
    const recent = await makeRun(db, team.teamId, team.targetId, {
      startedAt: new Date(now.getTime() - 11 * DAY),
      finishedAt: new Date(now.getTime() - 10 * DAY),
      seconds: 4,
    });
    const running = await makeRun(db, team.teamId, team.targetId, {
      startedAt: new Date(now.getTime() - 50 * DAY),
      finishedAt: null,
      seconds: 4,
    });
    const lastOctober = new Date(Date.UTC(september.getUTCFullYear(), 9, 15));
    const otherOld = await makeRun(db, other.id, otherTarget.id, {
      startedAt: lastOctober,
      finishedAt: new Date(lastOctober.getTime() + DAY),
      seconds: 4,
    });

    const r = await pruneExpiredSeconds(db, now);
    expect(r.runs).toBeGreaterThanOrEqual(2); // the expired run and the September run of the upgrade
    const after = async (id: string) => ({
      seconds: await db.runSecond.count({ where: { runId: id } }),
      samples: await db.resourceSample.count({ where: { runId: id } }),
      run: await db.run.findUniqueOrThrow({ where: { id } }),
    });
    const e = await after(expired.id);
    expect([e.seconds, e.samples]).toEqual([0, 0]);
    expect(e.run.secondsPrunedAt?.getTime()).toBe(now.getTime());
    expect(e.run.summary).toEqual({ requests: 40 });
    expect(Buffer.from(e.run.durationHist!)).toEqual(Buffer.from([1, 2, 3]));
    for (const kept of [recent, running, otherOld]) {
      const k = await after(kept.id);
      expect([k.seconds, k.samples, k.run.secondsPrunedAt]).toEqual([4, 4, null]);
    }
    expect((await pruneExpiredSeconds(db, now)).runs).toBe(0); // nothing left to do
  });

  it('empty months that ended before last month are dropped; months with rows and recent months stay', async () => {
    const y = september.getUTCFullYear();
    const dropped = await dropEmptyOldPartitions(db, now);
    // September of last year was emptied by retention above; October still holds the run of the
    // team without retention.
    expect(dropped.sort()).toEqual([`ResourceSample_p${y}09`, `RunSecond_p${y}09`]);
    const left = await listPartitions(db);
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    for (const p of left) if (p.to && p.to <= lastMonth) expect(p.rows, p.name).toBeGreaterThan(0);
    expect(left.some((p) => p.name.endsWith('_default'))).toBe(true);
  });

  it('one maintenance pass at a time: a second process skips while the first holds the lock', async () => {
    const other = createDb({ url, max: 2 });
    try {
      const [a, b] = await Promise.all([maintainStorage(db, now), maintainStorage(other, now)]);
      expect([a.skipped, b.skipped].sort()).toEqual([false, true]);
      const done = a.skipped ? b : a;
      expect(done.ensured).toHaveLength(6);
    } finally {
      await other.$disconnect();
    }
  });

  it('a pass that takes longer than the idle-in-transaction bound keeps its lock to the end', async () => {
    const quick = createDb({ url, max: 3, idleInTransactionMs: 300 });
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    try {
      // the pass's prune waits a second behind this lock, while its lock transaction sits idle
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE "RunSecond" IN ACCESS EXCLUSIVE MODE');
      const pass = maintainStorage(quick, now);
      await new Promise((r) => setTimeout(r, 1000));
      await blocker.query('COMMIT');
      expect((await pass).skipped).toBe(false);
    } finally {
      await blocker.end();
      await quick.$disconnect();
    }
  });

  it('secondsTsBounds covers every second of the runs (with a margin), and a running run up to now', async () => {
    const done = await makeRun(db, team.teamId, team.targetId, {
      startedAt: new Date(Date.UTC(2031, 0, 31, 23, 59, 58)),
      seconds: 5,
      finishedAt: new Date(Date.UTC(2031, 1, 1, 0, 0, 3)),
    });
    const live = await makeRun(db, team.teamId, team.targetId, {
      startedAt: new Date(now.getTime() - 60_000),
      seconds: 3,
      finishedAt: null,
    });
    const b = await secondsTsBounds(db, [done.id, live.id]);
    const rows = await db.runSecond.findMany({
      where: { runId: { in: [done.id, live.id] } },
      select: { ts: true },
    });
    expect(rows).toHaveLength(8);
    for (const r of rows) expect(r.ts >= b.from && r.ts < b.to, r.ts.toISOString()).toBe(true);
    expect(b.to.getTime()).toBeGreaterThan(Date.now());
    expect(await secondsTsBounds(db, ['no_such_run'])).toEqual({
      from: new Date(0),
      to: new Date(0),
    });
  });
});
