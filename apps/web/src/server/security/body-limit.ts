import { ProblemError } from '../rest/problem';

/** The largest request body the REST API and tRPC read: 1 MiB (an experiment definition is a few kB). */
export const MAX_BODY_BYTES = 1024 * 1024;

export const bodyTooLargeMessage = (limit: number) =>
  `the request body is larger than ${limit} bytes (${limit / 1024 / 1024} MiB), the most this API accepts`;

/**
 * Reads a request body as text, refusing it (ProblemError payload_too_large, 413) past `limit`
 * bytes before reading more: at once when Content-Length says so, else while streaming, so a
 * chunked body is never held beyond the limit.
 */
export async function readBodyLimited(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  checkContentLength(req.headers, limit);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ProblemError('payload_too_large', bodyTooLargeMessage(limit));
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Refuses a declared Content-Length over the limit without reading anything. */
export function checkContentLength(headers: Headers, limit = MAX_BODY_BYTES): void {
  const declared = Number(headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > limit)
    throw new ProblemError('payload_too_large', bodyTooLargeMessage(limit));
}
