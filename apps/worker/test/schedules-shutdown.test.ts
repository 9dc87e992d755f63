import { parseRun } from '@poolbench/db';
import { launchExperiment } from '@poolbench/runs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { SCHEDULE_QUEUE } from '@poolbench/contracts';
import { createWorld, stopChild, sustained, waitFor, type World } from './harness';

describe('worker: schedules and shutdown', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('schedules');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('a cron schedule creates experiments from its saved one; pausing stops it', async () => {
    const pc = await w.poolConfig('lazy sched', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('1 s sched', sustained(1, 1000));
    // The saved experiment the schedule clones (not enqueued itself).
    const saved = await launchExperiment(w.db, {
      teamId: w.ids.teamId,
      targetId: w.ids.targetId,
      poolConfigIds: [pc.id],
      scenarioIds: [sc.id],
      repeats: 1,
      name: 'nightly',
    });
    await w.db.run.updateMany({
      where: { experimentId: saved.experimentId },
      data: { status: 'canceled', finishedAt: new Date() },
    });
    const schedule = await w.db.schedule.create({
      data: {
        teamId: w.ids.teamId,
        name: 'every 2 s',
        sourceExperimentId: saved.experimentId,
        cron: '*/2 * * * * *',
        timezone: 'Europe/Berlin',
      },
    });
    w.startWorker();
    const fired = await waitFor(
      'a scheduled experiment',
      () => w.db.experiment.findFirst({ where: { scheduleId: schedule.id } }),
      40_000,
    );
    expect(fired.sourceId).toBe(saved.experimentId);
    expect(fired.name).toMatch(/^every 2 s · /);
    const run = await w.db.run.findFirstOrThrow({ where: { experimentId: fired.id } });
    expect((await w.waitForStatus(run.id, ['succeeded', 'failed'])).status).toBe('succeeded');

    await w.db.schedule.update({ where: { id: schedule.id }, data: { paused: true } });
    // the schedule sync removes its scheduler, and a firing already taken has ended
    const schedules = new Queue(SCHEDULE_QUEUE, { connection: w.redis, prefix: w.prefix });
    try {
      await waitFor(
        'the scheduler removed and no firing in flight',
        async () =>
          !(await schedules.getJobSchedulers(0, -1)).some((j) => j.key === schedule.id) &&
          (await schedules.getJobCountByTypes('active', 'waiting', 'prioritized')) === 0,
        30_000,
      );
    } finally {
      await schedules.close();
    }
    const count = await w.db.experiment.count({ where: { scheduleId: schedule.id } });
    await new Promise((r) => setTimeout(r, 5000)); // 2 periods of the every-2-s cron
    expect(await w.db.experiment.count({ where: { scheduleId: schedule.id } })).toBe(count);
  });

  it('SIGTERM: stops taking jobs, ends the current run within the grace period with its data, and exits', async () => {
    const worker = w.startWorker({ WORKER_SHUTDOWN_GRACE_MS: '2000' });
    const pc = await w.poolConfig('lazy term', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('30 s term', sustained(2, 30_000));
    const { runIds } = await w.launch([pc.id], [sc.id], 2);
    await w.waitForStatus(runIds[0]!, ['running']);
    await waitFor(
      'stored seconds',
      async () => (await w.db.runSecond.count({ where: { runId: runIds[0]! } })) >= 2,
    );
    const t = Date.now();
    // grace 2 s; the bound leaves room for a loaded machine and fails a worker that hangs
    const { code } = await stopChild(worker, 'SIGTERM', 20_000);
    expect(code).toBe(0);
    expect(Date.now() - t).toBeLessThan(20_000);
    const first = await w.db.run.findUniqueOrThrow({ where: { id: runIds[0]! } });
    expect(first.status).toBe('aborted_system');
    expect(first.errorCode).toBe('worker_shutdown');
    expect(parseRun(first).summary!.requests).toBeGreaterThan(0);
    // The second run was not taken: it waits for the next worker.
    expect((await w.db.run.findUniqueOrThrow({ where: { id: runIds[1]! } })).status).toBe('queued');
    w.startWorker();
    await w.waitForStatus(runIds[1]!, ['running']);
  });
});
