import { describe, expect, it, vi } from 'vitest';
import { webProcesses } from '../../web-processes.mjs';

describe('POOLBENCH_WEB_PROCESSES', () => {
  it('defaults to the cores minus one for the worker, at least one', () => {
    expect(webProcesses(undefined, 2)).toBe(1);
    expect(webProcesses('', 8)).toBe(7);
    expect(webProcesses(undefined, 1)).toBe(1);
  });

  it('takes a whole number from 1 to 64 and reports anything else, using the default', () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(webProcesses('4', 2)).toBe(4);
    for (const bad of ['0', '65', '1.5', 'all', '-2']) {
      expect(webProcesses(bad, 4)).toBe(3);
      expect(err).toHaveBeenLastCalledWith(
        expect.stringMatching(
          new RegExp(
            `POOLBENCH_WEB_PROCESSES="${bad.replace('.', '\\.')}": must be a whole number from 1 to 64; using 3`,
          ),
        ),
      );
    }
    err.mockRestore();
  });
});
