import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, HSTS, securityHeaders, SHARE_HEADERS } from './headers';

describe('security headers', () => {
  it('app routes: nonce CSP with strict-dynamic, no inline scripts, no framing, nosniff, referrer policy, permissions', () => {
    const h = securityHeaders('/runs', { nonce: 'abc123', https: false });
    expect(h['Content-Security-Policy']).toContain(
      "script-src 'self' 'nonce-abc123' 'strict-dynamic'",
    );
    expect(h['Content-Security-Policy']).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(h['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(h['Content-Security-Policy']).toContain("object-src 'none'");
    expect(h).toMatchObject({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Frame-Options': 'DENY',
    });
    expect(h['Permissions-Policy']).toContain('camera=()');
    expect(h['Strict-Transport-Security']).toBeUndefined();
  });

  it('HSTS only over https; development allows eval and the HMR socket', () => {
    expect(securityHeaders('/', { nonce: 'n', https: true })['Strict-Transport-Security']).toBe(
      HSTS,
    );
    expect(contentSecurityPolicy('n', { dev: true })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy('n')).not.toContain('ws:');
  });

  it('share pages and exports keep their script-free CSP and send no referrer', () => {
    for (const path of ['/share/tok', '/api/share/tok/export']) {
      const h = securityHeaders(path, { nonce: 'n', https: false });
      expect(h['Content-Security-Policy']).toBe(SHARE_HEADERS['Content-Security-Policy']);
      expect(h['Referrer-Policy']).toBe('no-referrer');
      expect(h['Permissions-Policy']).toContain('camera=()');
    }
    // the share page's route decides its caching on each answer; exports are never stored
    expect(securityHeaders('/share/tok', { nonce: 'n', https: false })).not.toHaveProperty(
      'Cache-Control',
    );
    for (const path of ['/share/tok/x', '/api/share/tok/export'])
      expect(securityHeaders(path, { nonce: 'n', https: false })['Cache-Control']).toBe(
        'private, no-store',
      );
  });
});
