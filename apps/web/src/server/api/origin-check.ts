/** What a tRPC request over HTTP tells about where it came from (absent for server-side callers). */
export interface HttpOrigin {
  /** the Origin header, or null when the browser (or client) sent none */
  origin: string | null;
  /** whether the request carries cookies, i.e. could be authenticated by the session cookie */
  hasCookies: boolean;
  /** origins this app is served under (BETTER_AUTH_URL, POOLBENCH_URL, TRUSTED_ORIGINS) */
  allowedOrigins: readonly string[];
}

/** The origins of the given URLs, normalized (`http://localhost:3000/` → `http://localhost:3000`); invalid ones skipped. */
export function originsOf(urls: readonly (string | undefined)[]): string[] {
  const out = new Set<string>();
  for (const u of urls) {
    if (!u) continue;
    try {
      out.add(new URL(u).origin);
    } catch {
      // not a URL: ignored here, env validation reports it where it matters
    }
  }
  return [...out];
}

export function httpOriginOf(headers: Headers, allowedOrigins: readonly string[]): HttpOrigin {
  return {
    origin: headers.get('origin'),
    hasCookies: (headers.get('cookie') ?? '').trim() !== '',
    allowedOrigins,
  };
}

/**
 * Why a mutation must be refused, or null. Defence in depth beside SameSite=Lax session cookies:
 * a mutation must come from one of our own origins. Browsers send Origin on every POST, so a
 * cookie-carrying mutation without one is refused too; a request without cookies cannot be
 * authenticated by a session, so it is left to the procedures' own checks.
 */
export function originRefusal(req: HttpOrigin): string | null {
  if (req.origin === null) {
    return req.hasCookies
      ? 'this request has no Origin header; changes are accepted only from PoolBench pages in a browser (or with an API token on /api/v1)'
      : null;
  }
  let origin: string;
  try {
    origin = new URL(req.origin).origin;
  } catch {
    origin = req.origin; // "null" (sandboxed frames, file:) and other non-URLs never match
  }
  if (req.allowedOrigins.includes(origin)) return null;
  return `cross-site request refused: Origin ${req.origin.slice(0, 100)} is not this app's origin (${req.allowedOrigins[0] ?? 'none configured'}); if PoolBench is served under another address, set BETTER_AUTH_URL or TRUSTED_ORIGINS to it`;
}
