import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** util-linux's taskset on PATH, or null (then nothing is pinned). */
export function findTaskset(path = process.env.PATH ?? '/usr/bin:/bin'): string | null {
  for (const dir of path.split(delimiter)) {
    const candidate = join(dir, 'taskset');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** "0-2,5" → [0, 1, 2, 5] (the kernel's cpu list format); [] for anything else. */
export function parseCpuList(text: string): number[] {
  const out = new Set<number>();
  for (const part of text.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return [];
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from || to - from > 4096) return [];
    for (let c = from; c <= to; c++) out.add(c);
  }
  return [...out].sort((a, b) => a - b);
}

/** [0, 1, 2, 5] → "0-2,5" */
export function formatCpuList(cpus: readonly number[]): string {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The CPUs this process may run on (its affinity, inside any cgroup cpuset), from /proc. */
export function allowedCpus(statusFile = '/proc/self/status'): number[] {
  try {
    const m = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(statusFile, 'utf8'));
    return m ? parseCpuList(m[1]!) : [];
  } catch {
    return [];
  }
}

/**
 * A command started on the given CPUs only (`taskset -c`), so it and everything it starts stay
 * there: affinity is inherited by children and threads. Without CPUs or taskset, unchanged.
 */
export function onCpus(
  cmd: string,
  args: string[],
  cpus: string | undefined,
  taskset: string | null = TASKSET,
): { cmd: string; args: string[] } {
  if (!cpus || !taskset) return { cmd, args };
  return { cmd: taskset, args: ['-c', cpus, cmd, ...args] };
}

export const TASKSET = process.platform === 'linux' ? findTaskset() : null;
