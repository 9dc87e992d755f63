import { describe, expect, it } from 'vitest';
import { suggestedRepeats } from './suggested-repeats';

describe('the Add repeats default', () => {
  it('asks for what the estimates say each side lacks, within 1..49', () => {
    const h = (status: string, repeatsNeeded: number | null, runsUsed: number) => ({
      status,
      repeatsNeeded,
      runsUsed,
    });
    // 5 runs per side now, about 12 per side needed: add 7
    expect(suggestedRepeats([h('unresolved', 12, 10), h('holds', null, 10)])).toBe(7);
    expect(suggestedRepeats([h('unresolved', 12, 10), h('unresolved', 20, 10)])).toBe(15);
    expect(suggestedRepeats([h('unresolved', 5, 10)])).toBe(1);
    expect(suggestedRepeats([h('unresolved', 50, 0)])).toBe(49);
    // no estimate within the limit: the plain default
    expect(suggestedRepeats([h('unresolved', null, 10)])).toBe(2);
  });
});
