import { describe, expect, it } from 'vitest';
import { checkWindow, windowFromParams, windowQuery } from './window-picker';

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
    expect(windowQuery({ from: 0, to: 20 })).toBe('&from=0&to=20');
    expect(windowQuery(null)).toBe('');
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
