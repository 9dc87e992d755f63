import { cpuPercent, readProc, type ProcReading } from '../../sampling/proc-stats';

/**
 * CPU and memory of this generator's own k6 process at 1 Hz: the run page warns when a generator
 * was above 80 % of a core, because then the numbers may be the generator's, not the target's.
 */
export class GeneratorStats {
  private prev: ProcReading | null = null;
  private timer: NodeJS.Timeout | null = null;
  private cpuSum = 0;
  private samples = 0;
  cpuMaxPercent: number | undefined;
  rssMaxBytes: bigint | undefined;

  start(pid: number): void {
    this.timer = setInterval(() => {
      void readProc(pid).then((cur) => {
        if (!cur) return;
        if (this.prev) {
          const cpu = cpuPercent(this.prev, cur);
          this.cpuSum += cpu;
          this.samples++;
          this.cpuMaxPercent = Math.max(this.cpuMaxPercent ?? 0, cpu);
        }
        this.prev = cur;
        if (this.rssMaxBytes === undefined || BigInt(cur.rssBytes) > this.rssMaxBytes)
          this.rssMaxBytes = BigInt(cur.rssBytes);
      });
    }, 1000);
    this.timer.unref();
  }

  get cpuAvgPercent(): number | undefined {
    return this.samples > 0 ? this.cpuSum / this.samples : undefined;
  }

  snapshot() {
    return {
      ...(this.cpuAvgPercent !== undefined ? { cpuAvgPercent: this.cpuAvgPercent } : {}),
      ...(this.cpuMaxPercent !== undefined ? { cpuMaxPercent: this.cpuMaxPercent } : {}),
      ...(this.rssMaxBytes !== undefined ? { rssMaxBytes: this.rssMaxBytes } : {}),
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
