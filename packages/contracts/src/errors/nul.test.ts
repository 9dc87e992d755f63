import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { nulPath, refuseNul } from './nul';

describe('nulPath', () => {
  it('names the first field holding a NUL, at any depth', () => {
    expect(nulPath('a\u0000b')).toBe('');
    expect(nulPath({ target: 'x\u0000' })).toBe('target');
    expect(nulPath({ a: { b: [1, 'ok', { c: '\u0000' }] } })).toBe('a.b.2.c');
    expect(nulPath({ ['k\u0000']: 1 })).toBe('k\\0');
  });
  it('passes everything else, other control characters included (the schemas judge those)', () => {
    for (const v of [null, undefined, 1, true, 'tab\there', { a: ['b', { c: 'd\u0001' }] }, []])
      expect(nulPath(v)).toBeNull();
  });
  it('refuses as a validation error with the field', () => {
    let err: unknown;
    try {
      refuseNul({ scenario: 'R\u0000' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('validation_failed');
    expect((err as AppError).problems).toEqual([
      { path: 'scenario', message: 'must not contain a NUL character (U+0000)' },
    ]);
  });
});
