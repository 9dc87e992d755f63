import { gunzipSync, gzipSync } from 'node:zlib';
import { notModified } from './finished-data-cache';

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
 * The response of a page-data route. Finished results: ETag, `private, no-cache` (the browser
 * revalidates and gets 304 without the body). Live ones: `no-store`, never 304. Behind
 * server.mjs a client that accepts gzip gets the stored gzip bytes as they are (no-transform, so
 * Next.js does not compress them again); elsewhere (`next dev`) the JSON, compressed by Next.js.
 */
export function pageBytesResponse(req: Request, page: PageBytes): Response {
  const caching: Record<string, string> = page.finished
    ? { ETag: page.etag, 'Cache-Control': 'private, no-cache', Vary: 'Cookie, Accept-Encoding' }
    : { 'Cache-Control': 'no-store' };
  if (page.finished && notModified(req.headers, page.etag))
    return new Response(null, { status: 304, headers: caching });
  const passGzip =
    req.headers.get(PASS_ENCODING_HEADER) === '1' &&
    /\bgzip\b/.test(req.headers.get('accept-encoding') ?? '');
  if (passGzip)
    return new Response(new Uint8Array(page.gzip), {
      headers: {
        ...caching,
        'Cache-Control': `${caching['Cache-Control']}, no-transform`,
        'Content-Type': 'application/json; charset=utf-8',
        [PASSED_ENCODING_HEADER]: 'gzip',
      },
    });
  return new Response(new Uint8Array(gunzipSync(page.gzip)), {
    headers: { ...caching, 'Content-Type': 'application/json; charset=utf-8' },
  });
}

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
  reqHeaders: Headers,
  page: StoredText,
  cacheControl: string,
): { body: BodyInit; headers: Record<string, string> } {
  const pass =
    reqHeaders.get(PASS_ENCODING_HEADER) === '1' &&
    /\bgzip\b/.test(reqHeaders.get('accept-encoding') ?? '');
  return pass
    ? {
        body: new Uint8Array(page.gzip),
        headers: {
          'Cache-Control': `${cacheControl}, no-transform`,
          [PASSED_ENCODING_HEADER]: 'gzip',
          Vary: 'Accept-Encoding',
        },
      }
    : { body: page.text, headers: { 'Cache-Control': cacheControl } };
}
