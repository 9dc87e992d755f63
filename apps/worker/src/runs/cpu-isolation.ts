import { allowedCpus, formatCpuList, TASKSET } from '@poolbench/k6';
import type { CpuIsolationMode } from '@poolbench/contracts';

/**
 * What a run got of the machine's CPUs, as it is recorded in its environment: k6 on some CPUs,
 * the target (instances, nginx, link proxy, blob store) on the others; or why not.
 */
export type CpuIsolation =
  | {
      mode: 'pinned';
      generatorCpus: string;
      targetCpus: string;
      /** the lab database is a server shared with other runs and PoolBench itself */
      database: 'not pinned (shared server)';
    }
  | { mode: 'off' | 'unavailable'; reason: string };

/**
 * Splits the CPUs this worker may use between the load generator and the target: the generator
 * gets the upper half (at least one), the target the rest. Not possible with one CPU or without
 * taskset; "off" when the target or pool config turns it off.
 */
export function planCpuIsolation(opts: {
  setting: CpuIsolationMode | undefined;
  cpus?: number[];
  taskset?: string | null;
}): CpuIsolation {
  if (opts.setting === 'off')
    return { mode: 'off', reason: 'turned off by the target or pool config' };
  const cpus = opts.cpus ?? allowedCpus();
  const taskset = opts.taskset === undefined ? TASKSET : opts.taskset;
  if (!taskset) return { mode: 'unavailable', reason: 'taskset (util-linux) is not installed' };
  if (cpus.length < 2)
    return {
      mode: 'unavailable',
      reason:
        cpus.length === 1
          ? `the worker may use one CPU only (${cpus[0]})`
          : 'the worker could not read the CPUs it may use',
    };
  const generator = cpus.slice(cpus.length - Math.max(1, Math.floor(cpus.length / 2)));
  const target = cpus.filter((c) => !generator.includes(c));
  return {
    mode: 'pinned',
    generatorCpus: formatCpuList(generator),
    targetCpus: formatCpuList(target),
    database: 'not pinned (shared server)',
  };
}

/** CPUs for k6 and for the target's processes (undefined = any). */
export const generatorCpus = (i: CpuIsolation) =>
  i.mode === 'pinned' ? i.generatorCpus : undefined;
export const targetCpus = (i: CpuIsolation) => (i.mode === 'pinned' ? i.targetCpus : undefined);
