import { gzipSync } from 'node:zlib';

// Absolute rates (req/s held, p95) depend on how fast the machine's cores are at the time, and a
// shared VM's are not always equally fast. A fixed single-core workload, timed before and after a
// bench, lets two runs of a section on different days be read together.
const INPUT = (() => {
  // xorshift32 from a fixed seed, masked to 6 bits: the same bytes every run, compressible like text
  const out = Buffer.alloc(4 * 2 ** 20);
  let x = 2463534242;
  for (let i = 0; i < out.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = (x >>> 0) & 0x3f;
  }
  return out;
})();

/** Median time of gzip (level 6) of a fixed 4 MiB buffer on this core, in ms (7 rounds). */
export function cpuReferenceMs(rounds = 7): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    gzipSync(INPUT, { level: 6 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(rounds / 2)]!;
}

/** The line a bench section prints: the reference before and after, to compare runs. */
export function cpuReferenceLine(beforeMs: number, afterMs: number): string {
  return `Single-core reference (gzip of a fixed 4 MiB buffer, median of 7; lower is a faster core, compare it between runs of this section): ${beforeMs.toFixed(0)} ms before, ${afterMs.toFixed(0)} ms after.`;
}
