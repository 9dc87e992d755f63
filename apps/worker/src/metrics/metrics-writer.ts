import type { Db, Prisma } from '@poolbench/db';

export type RunSecondRow = Prisma.RunSecondCreateManyInput;
export type ResourceSampleRow = Prisma.ResourceSampleCreateManyInput;

/**
 * Batches a run's per-second rows into about one write per second. Writes are idempotent
 * (primary key run + second + segment/instance, ON CONFLICT DO NOTHING), so a retry after a
 * timeout whose insert did land changes nothing. While Postgres is down rows stay buffered and
 * are retried with backoff; nothing is dropped until flush() gives up at its deadline.
 */
export class MetricsWriter {
  private seconds: RunSecondRow[] = [];
  private samples: ResourceSampleRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private failures = 0;
  written = { seconds: 0, samples: 0 };

  constructor(
    private readonly db: Db,
    private readonly opts: {
      intervalMs?: number;
      onError?: (err: unknown, pending: number) => void;
    } = {},
  ) {}

  start(): void {
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.writeOnce().finally(tick);
      }, this.backoffMs());
    };
    tick();
  }

  addSeconds(rows: RunSecondRow[]): void {
    this.seconds.push(...rows);
  }

  addSamples(rows: ResourceSampleRow[]): void {
    this.samples.push(...rows);
  }

  get pending(): number {
    return this.seconds.length + this.samples.length;
  }

  private backoffMs(): number {
    const base = this.opts.intervalMs ?? 1000;
    return this.failures === 0 ? base : Math.min(base * 2 ** this.failures, 5000);
  }

  private writeOnce(): Promise<void> {
    if (this.writing) return this.writing;
    this.writing = (async () => {
      const seconds = this.seconds.splice(0);
      const samples = this.samples.splice(0);
      if (seconds.length === 0 && samples.length === 0) return;
      try {
        if (seconds.length)
          await this.db.runSecond.createMany({ data: seconds, skipDuplicates: true });
        if (samples.length)
          await this.db.resourceSample.createMany({ data: samples, skipDuplicates: true });
        this.written.seconds += seconds.length;
        this.written.samples += samples.length;
        this.failures = 0;
      } catch (err) {
        // Put them back in front; idempotent inserts make a partial success harmless.
        this.seconds.unshift(...seconds);
        this.samples.unshift(...samples);
        this.failures++;
        this.opts.onError?.(err, this.pending);
      }
    })().finally(() => {
      this.writing = null;
    });
    return this.writing;
  }

  /** Stops the timer and writes everything left, retrying until deadlineMs. Returns rows not written. */
  async flush(deadlineMs = 60_000): Promise<number> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const until = Date.now() + deadlineMs;
    if (this.writing) await this.writing;
    while (this.pending > 0 && Date.now() < until) {
      await this.writeOnce();
      if (this.pending > 0) await new Promise((r) => setTimeout(r, this.backoffMs()));
    }
    return this.pending;
  }
}
