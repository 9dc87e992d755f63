import { gunzipSync } from 'node:zlib';
import { notModified } from './finished-data-cache';

/** A page-data payload: gzip bytes under a strong ETag, kept only when its results are final. */
export interface PageBytes {
  etag: string;
  gzip: Buffer;
  /** every result in it had ended: the ETag names these bytes until one of them changes */
  finished: boolean;
}

/**
 * The response of a page-data route. Finished results: ETag, `private, no-cache` (the browser
 * revalidates and gets 304 without the body), the stored gzip bytes as they are when the client
 * accepts gzip. Live ones: `no-store`, never 304.
 */
export function pageBytesResponse(req: Request, page: PageBytes): Response {
  const headers: Record<string, string> = page.finished
    ? { ETag: page.etag, 'Cache-Control': 'private, no-cache', Vary: 'Cookie, Accept-Encoding' }
    : { 'Cache-Control': 'no-store' };
  if (page.finished && notModified(req.headers, page.etag))
    return new Response(null, { status: 304, headers });
  const gzip = /\bgzip\b/.test(req.headers.get('accept-encoding') ?? '');
  return new Response(gzip ? new Uint8Array(page.gzip) : new Uint8Array(gunzipSync(page.gzip)), {
    headers: {
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    },
  });
}
