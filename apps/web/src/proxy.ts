import { NextResponse, type NextRequest } from 'next/server';
import { securityHeaders } from '~/server/security/headers';

/**
 * Security headers on every route (Next.js 16 "proxy", formerly middleware). A fresh nonce per
 * request goes into the CSP on the request too: Next.js reads it there while rendering and puts
 * it on its own scripts, which is why every page renders dynamically (root layout).
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  // Next.js sets x-forwarded-proto from the socket when absent; a forged "https" over plain http
  // only adds an HSTS header that browsers ignore on http
  const https =
    request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const headers = securityHeaders(request.nextUrl.pathname, {
    nonce,
    https,
    dev: process.env.NODE_ENV === 'development',
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', headers['Content-Security-Policy']!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

export const config = {
  // static build assets are immutable files with correct types; everything else gets the headers
  matcher: ['/((?!_next/static|_next/image).*)'],
};
