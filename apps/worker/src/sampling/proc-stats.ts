import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

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

async function readOne(pid: number): Promise<{ cpuSeconds: number; rssBytes: number } | null> {
  try {
    const [stat, status] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8'),
      readFile(`/proc/${pid}/status`, 'utf8'),
    ]);
    // comm may contain spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime + stime, plus cutime + cstime: children it has reaped (a recycled PHP-FPM child) still count.
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { cpuSeconds: ticks / clockTicks(), rssBytes: rssKb * 1024 };
  } catch {
    return null;
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  try {
    const tasks = await readdir(`/proc/${pid}/task`);
    const lists = await Promise.all(
      tasks.map((t) => readFile(`/proc/${pid}/task/${t}/children`, 'utf8').catch(() => '')),
    );
    return lists.flatMap((l) => l.split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

async function pssBytes(pid: number): Promise<number | null> {
  try {
    const kb = /^Pss:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/**
 * CPU time and memory of a process and all its descendants, straight from /proc (Linux): a runtime
 * may be several processes (PHP-FPM's master and children behind nginx), and what the target costs
 * is all of them. One process: its RSS, as always. Several: the sum of their PSS (each shared page
 * divided among the processes sharing it), because a sum of RSS counts PHP's shared code and
 * opcache once per child.
 */
export async function readProc(pid: number): Promise<ProcReading | null> {
  const root = await readOne(pid);
  if (!root) return null;
  let cpuSeconds = root.cpuSeconds;
  let rssBytes = root.rssBytes;
  const seen = new Set([pid]);
  let frontier = await childrenOf(pid);
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const c of frontier) {
      if (seen.has(c)) continue;
      seen.add(c);
      const r = await readOne(c);
      if (!r) continue;
      cpuSeconds += r.cpuSeconds;
      rssBytes += r.rssBytes;
      next.push(...(await childrenOf(c)));
    }
    frontier = next;
  }
  if (seen.size > 1) {
    const pss = await Promise.all([...seen].map(pssBytes));
    if (pss.every((v) => v !== null)) rssBytes = pss.reduce((a: number, b) => a + (b ?? 0), 0);
  }
  return { cpuSeconds, rssBytes, atMs: Date.now() };
}

/** CPU use between two readings in percent of one core (200 % = two cores busy). */
export function cpuPercent(prev: ProcReading, cur: ProcReading): number {
  const wall = (cur.atMs - prev.atMs) / 1000;
  return wall > 0 ? Math.max(0, ((cur.cpuSeconds - prev.cpuSeconds) / wall) * 100) : 0;
}
