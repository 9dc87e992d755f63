import { describe, expect, it } from 'vitest';
import { runOrder } from './run-order';

describe('runOrder', () => {
  it('interleaves configs within each repeat: A B A B, not A A B B', () => {
    const seq = runOrder(2, 1, 3, 'interleaved')
      .map((c) => 'AB'[c.poolConfigIndex])
      .join('');
    expect(seq).toBe('ABABAB');
  });
  it('blocked order keeps each config together', () => {
    const seq = runOrder(2, 1, 3, 'blocked')
      .map((c) => 'AB'[c.poolConfigIndex])
      .join('');
    expect(seq).toBe('AAABBB');
  });
  it('covers every cell exactly once', () => {
    const cells = runOrder(3, 2, 4, 'interleaved');
    expect(cells).toHaveLength(24);
    expect(
      new Set(cells.map((c) => `${c.poolConfigIndex}/${c.scenarioIndex}/${c.repeatIndex}`)).size,
    ).toBe(24);
  });
});
