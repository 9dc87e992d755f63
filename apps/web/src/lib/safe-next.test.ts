import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXT, safeNext } from './safe-next';

const ORIGIN = 'https://pb.example.test';

/** Where the browser would really land, the way `router.push(next)` resolves it. */
const landing = (next: string) => new URL(next, ORIGIN);

describe('safeNext: ?next= after sign-in stays on this origin', () => {
  it('keeps same-origin paths with query and hash', () => {
    expect(safeNext('/runs', ORIGIN)).toBe('/runs');
    expect(safeNext('/experiments/abc?tab=compare#p99', ORIGIN)).toBe(
      '/experiments/abc?tab=compare#p99',
    );
    expect(safeNext('/invite/tok_123', ORIGIN)).toBe('/invite/tok_123');
    expect(safeNext(null, ORIGIN)).toBe(DEFAULT_NEXT);
    expect(safeNext('', ORIGIN)).toBe(DEFAULT_NEXT);
  });

  // every form found by hand or known from open-redirect write-ups; none may leave the origin
  const hostile = [
    '/\\evil.example/x', // the one the attack used: landed on http://evil.example/x
    '/\\/evil.example',
    '\\/\\/evil.example',
    '\\\\evil.example',
    '//evil.example',
    '///evil.example',
    '/.//evil.example',
    '/./\\evil.example',
    '/a/../..//evil.example',
    '/%5Cevil.example',
    '/%2F%2Fevil.example',
    'https:evil.example',
    'https://evil.example',
    'http:/evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    ' //evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'evil.example',
    '/@evil.example',
    `${ORIGIN}.evil.example/`,
    'https://pb.example.test@evil.example/',
  ];
  for (const raw of hostile) {
    it(`never leaves the origin: ${JSON.stringify(raw)}`, () => {
      const out = safeNext(raw, ORIGIN);
      const url = landing(out);
      expect(url.origin).toBe(ORIGIN);
      expect(out.startsWith('/')).toBe(true);
      expect(out.startsWith('//')).toBe(false);
      expect(url.href).not.toContain('evil.example/');
    });
  }

  it('refuses the hostile forms outright, except encoded ones that stay harmless paths here', () => {
    for (const raw of hostile) {
      const out = safeNext(raw, ORIGIN);
      if (raw.startsWith('/%') || raw === '/@evil.example')
        expect(landing(out).origin).toBe(ORIGIN);
      else expect(out, JSON.stringify(raw)).toBe(DEFAULT_NEXT);
    }
  });
});
