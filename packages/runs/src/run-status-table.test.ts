import { RUN_STATUSES, TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { describe, expect, it } from 'vitest';
import { canTransition, RUN_TRANSITIONS, toStatus } from './run-status-table';

describe('the run transition table', () => {
  it('lets nothing leave a terminal status, and every status is reachable from queued', () => {
    for (const from of TERMINAL_RUN_STATUSES)
      for (const to of RUN_STATUSES) expect(canTransition(from, to), `${from} → ${to}`).toBe(false);
    const reached = new Set<string>(['queued']);
    for (let grew = true; grew;) {
      grew = false;
      for (const t of Object.values(RUN_TRANSITIONS))
        if (t.from.some((f) => reached.has(f)))
          for (const to of t.to) if (!reached.has(to)) grew = reached.add(to) !== null;
    }
    expect([...reached].sort()).toEqual([...RUN_STATUSES].sort());
  });
  it('refuses a status its transition does not allow', () => {
    expect(toStatus('finish', 'canceled')).toBe('canceled');
    expect(() => toStatus('finish', 'running')).toThrow(/finish cannot end in running/);
    expect(() => toStatus('abortStale', 'succeeded')).toThrow();
    expect(canTransition('queued', 'running')).toBe(false);
    expect(canTransition('preparing', 'running')).toBe(true);
  });
});
