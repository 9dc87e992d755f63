import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedCpus, formatCpuList, onCpus, parseCpuList, TASKSET } from './cpu-affinity';

describe('CPU lists and taskset', () => {
  it("reads and writes the kernel's cpu list format", () => {
    expect(parseCpuList('0-2,5')).toEqual([0, 1, 2, 5]);
    expect(parseCpuList('3')).toEqual([3]);
    expect(parseCpuList('1,0,1')).toEqual([0, 1]);
    for (const bad of ['', 'a', '2-1', '0-', '0-99999']) expect(parseCpuList(bad), bad).toEqual([]);
    expect(formatCpuList([5, 0, 1, 2])).toBe('0-2,5');
    expect(formatCpuList([1])).toBe('1');
    expect(formatCpuList([0, 2, 4])).toBe('0,2,4');
  });

  it('reads the CPUs a process may use from its status file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pb-cpus-'));
    try {
      writeFileSync(
        join(dir, 'status'),
        'Name:\tnode\nCpus_allowed_list:\t0-3\nMems_allowed:\t1\n',
      );
      expect(allowedCpus(join(dir, 'status'))).toEqual([0, 1, 2, 3]);
      expect(allowedCpus(join(dir, 'missing'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(allowedCpus().length).toBeGreaterThan(0);
  });

  it('wraps a command in taskset only when CPUs are asked for, and the child really is pinned', () => {
    expect(onCpus('k6', ['run'], undefined, '/usr/bin/taskset')).toEqual({
      cmd: 'k6',
      args: ['run'],
    });
    expect(onCpus('k6', ['run'], '1', null)).toEqual({ cmd: 'k6', args: ['run'] });
    expect(onCpus('k6', ['run'], '1', '/usr/bin/taskset')).toEqual({
      cmd: '/usr/bin/taskset',
      args: ['-c', '1', 'k6', 'run'],
    });
    expect(TASKSET, 'util-linux taskset is part of setup').not.toBeNull();
    const last = allowedCpus().at(-1)!;
    const wrapped = onCpus('sh', ['-c', 'grep Cpus_allowed_list /proc/self/status'], `${last}`);
    const out = execFileSync(wrapped.cmd, wrapped.args, { encoding: 'utf8' });
    expect(out.trim()).toBe(`Cpus_allowed_list:\t${last}`);
  });
});
