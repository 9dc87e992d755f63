/**
 * The security headers of every response, set in one place (src/proxy.ts) so no route can forget
 * them. Pure functions: the proxy passes the request's facts, tests call them directly.
 */

/** Share pages and share exports: no referrer (the token is in the URL), never indexed or cached, no scripts. */
export const SHARE_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow, noarchive',
  'Cache-Control': 'private, no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // results only: no scripts at all, styles and SVG inline
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
} as const;

/** Browser features the app never uses, switched off for it and anything it might embed. */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), browsing-topics=()';

/** One year, the minimum for HSTS preload lists; only ever sent over https (see `securityHeaders`). */
export const HSTS = 'max-age=31536000; includeSubDomains';

const SHARE_PAGE_PATH = /^\/share\/[^/]+$/;

export function isSharePath(pathname: string): boolean {
  return pathname.startsWith('/share/') || pathname.startsWith('/api/share/');
}

/**
 * The app's CSP. Scripts only with this response's nonce (Next.js reads it from the request's CSP
 * header and puts it on its own scripts); 'strict-dynamic' lets those load their chunks.
 * style-src keeps 'unsafe-inline' without a nonce, because charts (Recharts) and React set style
 * attributes, which a nonce cannot allow (and a nonce would switch 'unsafe-inline' off).
 * Development needs 'unsafe-eval' (React's dev tooling) and the HMR websocket.
 */
export function contentSecurityPolicy(nonce: string, opts: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${opts.dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Every header for one response. `https`: the request reached us (or our TLS-terminating proxy)
 * over https; HSTS is sent only then, and browsers ignore it over plain http anyway.
 */
export function securityHeaders(
  pathname: string,
  opts: { nonce: string; https: boolean; dev?: boolean },
): Record<string, string> {
  const base: Record<string, string> = isSharePath(pathname)
    ? { ...SHARE_HEADERS }
    : {
        'Content-Security-Policy': contentSecurityPolicy(opts.nonce, opts),
        'Referrer-Policy': 'strict-origin-when-cross-origin',
        'X-Content-Type-Options': 'nosniff',
        'X-Frame-Options': 'DENY',
      };
  // The share page's route sets Cache-Control on every answer: `private, no-cache` with an ETag
  // for a page (a browser revalidates each view, so a revoked link is refused at once, and gets
  // 304 while nothing changed), `private, no-store` for 404 and 429. Exports stay `no-store`.
  if (SHARE_PAGE_PATH.test(pathname)) delete base['Cache-Control'];
  base['Permissions-Policy'] = PERMISSIONS_POLICY;
  base['Cross-Origin-Opener-Policy'] = 'same-origin';
  if (opts.https) base['Strict-Transport-Security'] = HSTS;
  return base;
}
