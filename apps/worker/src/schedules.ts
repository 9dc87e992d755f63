import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Db } from '@poolbench/db';
import { launchFiring } from '@poolbench/runs';
import { SCHEDULE_QUEUE, ScheduleJobSchema } from '@poolbench/contracts';
import type { Logger } from 'pino';

/**
 * Cron schedules live in Postgres (the web app writes them); BullMQ job schedulers fire them.
 * sync() makes Redis match the table: one scheduler per active schedule (id = schedule id, cron
 * + timezone), none for paused or deleted ones. Each firing clones the schedule's saved
 * experiment and enqueues its runs.
 */
export class ScheduleService {
  readonly queue: Queue;
  private worker: Worker | null = null;

  constructor(
    private readonly db: Db,
    private readonly connection: Redis,
    private readonly runQueue: Queue,
    private readonly log: Logger,
    private readonly prefix?: string,
    /** connection errors go to the worker's state log (logged once per outage) */
    private readonly onError: (err: Error) => void = (err) =>
      log.warn({ err: err.message }, 'schedule queue error'),
  ) {
    this.queue = new Queue(SCHEDULE_QUEUE, { connection, prefix });
    this.queue.on('error', (err) => this.onError(err));
  }

  async sync(): Promise<{ active: number; removed: number }> {
    const schedules = await this.db.schedule.findMany({
      select: { id: true, cron: true, timezone: true, paused: true },
    });
    const wanted = new Map(schedules.filter((s) => !s.paused).map((s) => [s.id, s]));
    const existing = await this.queue.getJobSchedulers(0, -1);
    let removed = 0;
    for (const js of existing) {
      const w = js.key ? wanted.get(js.key) : undefined;
      if (!w || js.pattern !== w.cron || (js.tz ?? 'UTC') !== w.timezone) {
        await this.queue.removeJobScheduler(js.key);
        removed++;
      }
    }
    const have = new Set((await this.queue.getJobSchedulers(0, -1)).map((j) => j.key));
    for (const s of wanted.values()) {
      if (have.has(s.id)) continue;
      await this.queue.upsertJobScheduler(
        s.id,
        { pattern: s.cron, tz: s.timezone },
        {
          name: 'fire',
          data: { scheduleId: s.id },
          opts: { attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
        },
      );
    }
    return { active: wanted.size, removed };
  }

  /** Handles one firing. Exported for tests; the BullMQ worker calls it. */
  async fire(
    job: Pick<Job, 'data'>,
  ): Promise<{ experimentId: string; runs: number } | { skipped: string }> {
    const { scheduleId } = ScheduleJobSchema.parse(job.data);
    const s = await this.db.schedule.findUnique({ where: { id: scheduleId } });
    if (!s) return { skipped: 'schedule deleted' };
    if (s.paused) return { skipped: 'schedule paused' };
    const launched = await launchFiring({ db: this.db, queue: this.runQueue }, s);
    await this.db.schedule.update({ where: { id: s.id }, data: { lastFiredAt: new Date() } });
    this.log.info(
      { scheduleId, experimentId: launched.experimentId, enqueued: launched.enqueued },
      'schedule fired',
    );
    return { experimentId: launched.experimentId, runs: launched.runIds.length };
  }

  startWorker(connection: Redis): void {
    this.worker = new Worker(SCHEDULE_QUEUE, (job) => this.fire(job), {
      connection,
      prefix: this.prefix,
      concurrency: 1,
    });
    this.worker.on('error', (err) => this.onError(err));
    this.worker.on('failed', (job, err) =>
      this.log.error({ jobId: job?.id, err: err.message }, 'schedule firing failed'),
    );
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }
}
