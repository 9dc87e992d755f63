import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export interface ProcReading {
  /** user + system CPU time, seconds */
  cpuSeconds: number;
  rssBytes: number;
  atMs: number;
}

/** CPU time and resident memory of one process, straight from /proc (Linux). */
export async function readProc(pid: number): Promise<ProcReading | null> {
  try {
    const [stat, status] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8'), readFile(`/proc/${pid}/status`, 'utf8')]);
    // comm may contain spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { cpuSeconds: (utime + stime) / clockTicks(), rssBytes: rssKb * 1024, atMs: Date.now() };
  } catch {
    return null;
  }
}

/** CPU use between two readings in percent of one core (200 % = two cores busy). */
export function cpuPercent(prev: ProcReading, cur: ProcReading): number {
  const wall = (cur.atMs - prev.atMs) / 1000;
  return wall > 0 ? Math.max(0, ((cur.cpuSeconds - prev.cpuSeconds) / wall) * 100) : 0;
}
