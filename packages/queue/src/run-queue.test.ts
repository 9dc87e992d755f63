import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { producerConnection, workerConnection } from './connections';
import { createRunQueue, enqueueRuns } from './run-queue';
import { publishRunEvent, subscribeRunEvents } from './run-events';
import type { LiveEvent } from '@poolbench/contracts';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';
const prefix = `pbtest-${randomBytes(4).toString('hex')}`;

describe('run queue (real Redis)', () => {
  const conn = workerConnection(url);
  const queue = createRunQueue(conn, prefix);
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    conn.disconnect();
  });

  it('uses jobId = runId, one attempt, and never duplicates a run', async () => {
    await enqueueRuns(queue, ['run_a', 'run_b']);
    await enqueueRuns(queue, ['run_a']);
    const jobs = await queue.getJobs(['waiting', 'prioritized']);
    expect(jobs.map((j) => j.opts.priority).sort()).toEqual([1, 2]);
    expect(jobs.map((j) => j.id).sort()).toEqual(['run_a', 'run_b']);
    expect(jobs[0]!.opts.attempts).toBe(1);
    expect(jobs.find((j) => j.id === 'run_a')!.data).toEqual({ runId: 'run_a' });
  });

  it('ranks each team by its own backlog so a later small experiment is not starved', async () => {
    const q = createRunQueue(conn, `${prefix}-fair`);
    await enqueueRuns(q, ['a1', 'a2', 'a3', 'a4']);
    await enqueueRuns(q, ['b1', 'b2'], { backlog: 0 });
    const order: string[] = [];
    const { Worker } = await import('bullmq');
    const w = new Worker(
      q.name,
      async (job) => {
        order.push(job.id!);
      },
      { connection: workerConnection(url), prefix: `${prefix}-fair`, concurrency: 1 },
    );
    await new Promise<void>((resolve) => w.on('drained', () => resolve()));
    await w.close();
    await q.obliterate({ force: true });
    await q.close();
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('refuses a payload that is not an id', async () => {
    await expect(enqueueRuns(queue, ['no spaces allowed'])).rejects.toThrow(/must be an id/);
  });

  it('publishes and receives live events, dropping malformed ones', async () => {
    const sub = workerConnection(url);
    const pub = producerConnection(url);
    const got: LiveEvent[] = [];
    const stop = await subscribeRunEvents(sub, 'run_x', (e) => got.push(e));
    await pub.publish('poolbench:run:run_x', 'not json');
    await publishRunEvent(pub, { type: 'heartbeat', runId: 'run_x', atMs: 1 });
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toEqual([{ type: 'heartbeat', runId: 'run_x', atMs: 1 }]);
    await stop();
    sub.disconnect();
    pub.disconnect();
  });
});
