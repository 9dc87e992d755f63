import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('is the same for values that differ only in key order, at every level', () => {
    expect(canonicalJson({ maxConns: 20, min: 5, env: { b: 1, a: [{ y: 1, x: 2 }] } })).toBe(
      canonicalJson({ env: { a: [{ x: 2, y: 1 }], b: 1 }, min: 5, maxConns: 20 }),
    );
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});
