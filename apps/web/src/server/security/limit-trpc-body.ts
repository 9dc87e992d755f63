import { AppError } from '@poolbench/contracts/errors';
import { MAX_BODY_BYTES, readBodyLimited } from './body-limit';

/**
 * The tRPC side of the body limit: reads the body up to `limit` bytes and hands tRPC a request
 * with that body, or, past the limit, one without a body and the message for the
 * PAYLOAD_TOO_LARGE error tRPC then answers (413) in its own error shape.
 */
export async function limitTrpcBody(
  request: Request,
  limit = MAX_BODY_BYTES,
): Promise<{ req: Request; tooLarge: string | null }> {
  if (request.method === 'GET' || request.method === 'HEAD')
    return { req: request, tooLarge: null };
  try {
    const body = await readBodyLimited(request, limit);
    return { req: rebuild(request, body), tooLarge: null };
  } catch (err) {
    if (err instanceof AppError && err.code === 'payload_too_large')
      return { req: rebuild(request, ''), tooLarge: err.message };
    throw err;
  }
}

function rebuild(request: Request, body: string): Request {
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new Request(request.url, { method: request.method, headers, body });
}
