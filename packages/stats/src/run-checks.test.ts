import { describe, expect, it } from 'vitest';
import { checkPassRate, sumChecks } from './run-checks';

describe('sumChecks', () => {
  it('adds each check by group and name, keeps first-seen order, and counts the overflow in the rate', () => {
    const c = sumChecks([
      { items: [{ name: 'status is 200', group: '', passes: 3, fails: 0 }] },
      null,
      {
        items: [
          { name: 'token', group: '::login', passes: 1, fails: 2 },
          { name: 'status is 200', group: '', passes: 0, fails: 1 },
          // the same name in another group is another check, as in k6's summary
          { name: 'status is 200', group: '::login', passes: 2, fails: 0 },
        ],
        overflow: { passes: 4, fails: 1 },
      },
    ]);
    expect(c).toEqual({
      passes: 10,
      fails: 4,
      items: [
        { name: 'status is 200', group: '', passes: 3, fails: 1 },
        { name: 'token', group: '::login', passes: 1, fails: 2 },
        { name: 'status is 200', group: '::login', passes: 2, fails: 0 },
      ],
      overflow: { passes: 4, fails: 1 },
    });
    expect(checkPassRate(c)).toBeCloseTo(10 / 14, 12);
  });

  it('is null without checks, and the rate of no samples is null', () => {
    expect(sumChecks([null, undefined, { items: [] }])).toBeNull();
    expect(checkPassRate({ passes: 0, fails: 0 })).toBeNull();
    expect(checkPassRate(null)).toBeNull();
  });
});
