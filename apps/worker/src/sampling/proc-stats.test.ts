import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readProc } from './proc-stats';

const program = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
  } catch {
    return '';
  }
};

/** The kernel's state letter of a process ('S' sleeping, 'R' running, …). */
const state = (pid: number) => {
  try {
    return /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? '';
  } catch {
    return '';
  }
};

/**
 * Waits (a condition, not an instant) until every pid runs the program it was started for and
 * has gone to sleep in it: before that, exec and the dynamic loader are still mapping pages and
 * the memory read here and the one readProc reads later differ.
 */
async function untilExecd(pids: () => number[], name: string, count: number): Promise<number[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const now = pids();
    if (now.length >= count && now.every((p) => program(p).endsWith(name) && state(p) === 'S'))
      return now;
    if (Date.now() > deadline)
      throw new Error(`expected ${count} ${name} processes, saw ${now.map(program).join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// A target of several processes is measured as all of them, without counting shared pages once
// per process: checked against the kernel's own per-process numbers.
describe('readProc over a process tree', () => {
  const tree = spawn('sh', ['-c', 'sleep 30 & sleep 30 & sleep 30 & wait'], {
    stdio: 'ignore',
    detached: true,
  });
  afterAll(() => {
    try {
      process.kill(-tree.pid!, 'SIGKILL');
    } catch {
      tree.kill('SIGKILL');
    }
  });

  it('sums CPU over the descendants and memory as PSS, below the RSS sum and above any one process', async () => {
    const kids = () =>
      readdirSync(`/proc/${tree.pid}/task`).flatMap((t) =>
        readFileSync(`/proc/${tree.pid}/task/${t}/children`, 'utf8')
          .split(' ')
          .filter(Boolean)
          .map(Number),
      );
    const pids = [tree.pid!, ...(await untilExecd(kids, 'sleep', 3))];
    expect(pids).toHaveLength(4);
    const rss = (p: number) =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))![1]) * 1024;
    const pss = (p: number) =>
      Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'))![1]) * 1024;
    const r = (await readProc(tree.pid!))!;
    const rssSum = pids.reduce((a, p) => a + rss(p), 0);
    const pssSum = pids.reduce((a, p) => a + pss(p), 0);
    // three sleeps share their code and libc: the PSS sum is well below the RSS sum
    expect(r.rssBytes).toBeLessThan(rssSum * 0.9);
    expect(Math.abs(r.rssBytes - pssSum)).toBeLessThan(pssSum * 0.1);
    expect(r.rssBytes).toBeGreaterThan(Math.max(...pids.map(pss)));
  });

  it('a single process is its RSS, as before', async () => {
    const one = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await untilExecd(() => [one.pid!], 'sleep', 1);
      const rss =
        Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${one.pid}/status`, 'utf8'))![1]) * 1024;
      expect((await readProc(one.pid!))!.rssBytes).toBe(rss);
    } finally {
      one.kill('SIGKILL');
    }
  });
});
