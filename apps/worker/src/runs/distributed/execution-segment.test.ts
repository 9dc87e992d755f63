import { describe, expect, it } from 'vitest';
import { executionSegmentOf } from './execution-segment';

describe('executionSegmentOf', () => {
  it('gives generator i of n the i-th equal part of the full sequence', () => {
    expect(executionSegmentOf(0, 3)).toEqual({ segment: '0:1/3', sequence: '0,1/3,2/3,1' });
    expect(executionSegmentOf(1, 3)).toEqual({ segment: '1/3:2/3', sequence: '0,1/3,2/3,1' });
    expect(executionSegmentOf(2, 3)).toEqual({ segment: '2/3:1', sequence: '0,1/3,2/3,1' });
    expect(executionSegmentOf(15, 16).segment).toBe('15/16:1');
  });
  it('refuses a single generator or an index outside the run', () => {
    expect(() => executionSegmentOf(0, 1)).toThrow('count');
    expect(() => executionSegmentOf(3, 3)).toThrow('index');
  });
});
