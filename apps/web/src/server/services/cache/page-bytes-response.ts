import { gunzipSync, gzipSync } from 'node:zlib';
import { notModified, type HeaderReader } from './finished-data-cache';

/** A page-data payload: gzip bytes under a strong ETag, kept only when its results are final. */
export interface PageBytes {
  etag: string;
  gzip: Buffer;
  /** every result in it had ended: the ETag names these bytes until one of them changes */
  finished: boolean;
}

/**
 * Set by server.mjs on every request it hands to Next.js (a client-sent one is removed): the
 * server passes `PASSED_ENCODING_HEADER` on as Content-Encoding, which Next.js 16 drops from route
 * handlers' responses.
 */
export const PASS_ENCODING_HEADER = 'x-poolbench-pass-encoding';
export const PASSED_ENCODING_HEADER = 'x-poolbench-content-encoding';

/**
 * The `Server-Timing` of an answer server.mjs's fast path gave (src/server/fast-path.ts): for a
 * person reading headers, the pages bench and the tests.
 */
export const FAST_PATH_TIMING = 'memory;desc="answered from memory"';

/**
 * A response as plain data: a route handler sends it as a `Response` (`answerResponse`), and
 * server.mjs's fast path writes it as it is, without building one.
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string | null;
}

export const answerResponse = (a: Answer): Response =>
  new Response(typeof a.body === 'string' || a.body === null ? a.body : new Uint8Array(a.body), {
    status: a.status,
    headers: a.headers,
  });

/**
 * Does an Accept-Encoding header accept gzip (RFC 9110 §12.5.3)? `gzip` or `x-gzip` with a q
 * above 0, or else `*` with a q above 0; `gzip;q=0` refuses it, whatever `*` says.
 */
export function acceptsGzip(header: string | null): boolean {
  let gzip: number | null = null;
  let star: number | null = null;
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const qParam = params.find((p) => /^q\s*=/.test(p));
    const q = qParam === undefined ? 1 : Number(qParam.replace(/^q\s*=\s*/, ''));
    const weight = Number.isFinite(q) ? q : 0;
    if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip ?? 0, weight);
    else if (name === '*') star = Math.max(star ?? 0, weight);
  }
  return (gzip ?? star ?? 0) > 0;
}

/** True when this request came through server.mjs from a client that accepts gzip. */
const passesGzip = (headers: HeaderReader) =>
  headers.get(PASS_ENCODING_HEADER) === '1' && acceptsGzip(headers.get('accept-encoding'));

/**
 * The answer of a page-data route. Finished results: ETag, `private, no-cache` (the browser
 * revalidates and gets 304 without the body). Live ones: `no-store`, never 304. Behind
 * server.mjs a client that accepts gzip gets the stored gzip bytes as they are (no-transform, so
 * Next.js does not compress them again); elsewhere (`next dev`) the JSON, compressed by Next.js.
 */
export function pageBytesAnswer(headers: HeaderReader, page: PageBytes): Answer {
  const caching: Record<string, string> = page.finished
    ? { ETag: page.etag, 'Cache-Control': 'private, no-cache', Vary: 'Cookie, Accept-Encoding' }
    : { 'Cache-Control': 'no-store' };
  if (page.finished && notModified(headers, page.etag))
    return { status: 304, headers: caching, body: null };
  if (passesGzip(headers))
    return {
      status: 200,
      headers: {
        ...caching,
        'Cache-Control': `${caching['Cache-Control']}, no-transform`,
        'Content-Type': 'application/json; charset=utf-8',
        [PASSED_ENCODING_HEADER]: 'gzip',
      },
      body: page.gzip,
    };
  return {
    status: 200,
    headers: { ...caching, 'Content-Type': 'application/json; charset=utf-8' },
    body: gunzipSync(page.gzip),
  };
}

export const pageBytesResponse = (req: Request, page: PageBytes): Response =>
  answerResponse(pageBytesAnswer(req.headers, page));

/** A page's text with its gzip, made once when the page is stored. */
export interface StoredText {
  text: string;
  gzip: Buffer;
}
export const storedText = (text: string): StoredText => ({ text, gzip: gzipSync(text) });

/**
 * A stored page's body for this request: its gzip bytes as they are, behind server.mjs for a
 * client that accepts gzip (with the headers that send them so), else the text, which Next.js
 * compresses itself.
 */
export function storedBody(
  reqHeaders: HeaderReader,
  page: StoredText,
  cacheControl: string,
): { body: Uint8Array | string; headers: Record<string, string> } {
  return passesGzip(reqHeaders)
    ? {
        body: page.gzip,
        headers: {
          'Cache-Control': `${cacheControl}, no-transform`,
          [PASSED_ENCODING_HEADER]: 'gzip',
          Vary: 'Accept-Encoding',
        },
      }
    : { body: page.text, headers: { 'Cache-Control': cacheControl } };
}

/**
 * The `maxPoints` parameter of a page-data route: `fallback` when absent, null unless a whole
 * number from 20 to `max`.
 */
export function maxPointsParam(raw: string | null, fallback: number, max: number): number | null {
  const n = raw === null ? fallback : Number(raw);
  return Number.isInteger(n) && n >= 20 && n <= max ? n : null;
}
/** The most points a page-data route draws per series, and the compare view's default. */
export const RUN_DATA_MAX_POINTS = 5000;
export const COMPARE_DATA_MAX_POINTS = 2000;
export const COMPARE_DATA_DEFAULT_POINTS = 300;
