import { availableParallelism } from 'node:os';

/**
 * How many web server processes to run: POOLBENCH_WEB_PROCESSES as a whole number from 1 to 64,
 * else the machine's cores minus one (a worker and its load generator usually share the
 * machine), at least 1. A value out of range is reported and the default used.
 */
export function webProcesses(value, cores = availableParallelism()) {
  const fallback = Math.max(1, cores - 1);
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(
      `POOLBENCH_WEB_PROCESSES=${JSON.stringify(value)}: must be a whole number from 1 to 64; using ${fallback}`,
    );
    return fallback;
  }
  return n;
}
