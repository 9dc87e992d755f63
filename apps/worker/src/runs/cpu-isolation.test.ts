import { describe, expect, it } from 'vitest';
import { generatorCpus, planCpuIsolation, targetCpus } from './cpu-isolation';

describe('planCpuIsolation: k6 and the target on separate CPUs', () => {
  it('splits the allowed CPUs: the generator takes the upper half, the target the rest', () => {
    const two = planCpuIsolation({ setting: undefined, cpus: [0, 1], taskset: '/usr/bin/taskset' });
    expect(two).toEqual({
      mode: 'pinned',
      generatorCpus: '1',
      targetCpus: '0',
      database: 'not pinned (shared server)',
    });
    expect(generatorCpus(two)).toBe('1');
    expect(targetCpus(two)).toBe('0');
    const odd = planCpuIsolation({ setting: 'auto', cpus: [2, 3, 4, 6, 7], taskset: 'taskset' });
    expect(odd).toMatchObject({ generatorCpus: '6-7', targetCpus: '2-4' });
  });

  it('says why not: turned off, one CPU, no taskset, unreadable CPUs', () => {
    const off = planCpuIsolation({ setting: 'off', cpus: [0, 1], taskset: 'taskset' });
    expect(off).toEqual({ mode: 'off', reason: 'turned off by the target or pool config' });
    expect(generatorCpus(off)).toBeUndefined();
    expect(targetCpus(off)).toBeUndefined();
    expect(planCpuIsolation({ setting: 'auto', cpus: [3], taskset: 'taskset' })).toEqual({
      mode: 'unavailable',
      reason: 'the worker may use one CPU only (3)',
    });
    expect(planCpuIsolation({ setting: 'auto', cpus: [0, 1], taskset: null })).toMatchObject({
      mode: 'unavailable',
      reason: expect.stringMatching(/taskset/),
    });
    expect(planCpuIsolation({ setting: 'auto', cpus: [], taskset: 'taskset' })).toMatchObject({
      mode: 'unavailable',
      reason: expect.stringMatching(/could not read/),
    });
  });
});
