import { describe, expect, it } from 'vitest';
import { compareQuery } from '@poolbench/contracts/links';
import { checkWindow, windowFromParams } from './window-picker';

describe('time window input', () => {
  it('reads from/to from the URL, ignoring anything that is not a window', () => {
    expect(windowFromParams(new URLSearchParams('items=x&from=10&to=60'))).toEqual({
      from: 10,
      to: 60,
    });
    expect(windowFromParams(new URLSearchParams('from=10'))).toBeNull();
    expect(windowFromParams(new URLSearchParams('from=60&to=10'))).toBeNull();
    expect(windowFromParams(new URLSearchParams('from=-1&to=10'))).toBeNull();
    expect(windowFromParams(new URLSearchParams('from=1.5&to=10'))).toBeNull();
    // the links every page builds read back as the same window
    const items = [
      { kind: 'run' as const, runId: 'r1' },
      { kind: 'run' as const, runId: 'r2' },
    ];
    const q = compareQuery(items, { baseline: 1, window: { from: 0, to: 20 } });
    expect(q).toBe('items=r.r1,r.r2&baseline=1&from=0&to=20');
    expect(windowFromParams(new URLSearchParams(q))).toEqual({ from: 0, to: 20 });
    expect(windowFromParams(new URLSearchParams(compareQuery(items)))).toBeNull();
  });

  it('names the field and the reason for every bad input', () => {
    expect(checkWindow('0', '20', 40)).toEqual({ window: { from: 0, to: 20 } });
    expect(checkWindow('', '20', 40)).toEqual({
      errors: { from: 'From must be a whole number of seconds, 0 or more' },
    });
    expect(checkWindow('2.5', 'x', 40)).toEqual({
      errors: {
        from: 'From must be a whole number of seconds, 0 or more',
        to: 'To must be a whole number of seconds, 1 or more',
      },
    });
    expect(checkWindow('5', '5', 40)).toEqual({ errors: { to: 'To must be after From (5 s)' } });
    expect(checkWindow('40', '50', 40)).toEqual({
      errors: { from: 'From must be before the end of the runs (40 s)' },
    });
    // past the end is allowed for To: the window is clipped to each run's length
    expect(checkWindow('10', '999', 40)).toEqual({ window: { from: 10, to: 999 } });
  });
});
