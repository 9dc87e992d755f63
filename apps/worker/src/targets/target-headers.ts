import { z } from 'zod';
import { RunError } from '../runs/run-error';

const Headers = z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/, 'is not a valid header name'), z.string().max(4096).regex(/^[\t\x20-\x7e]*$/, 'must be printable ASCII'));

/**
 * A URL target's non-secret headers, stored in requestDefaults.headers by the web app; sent by
 * k6 on every request of the run (issue 12). Parsed here because the column is plain JSON.
 */
export function targetHeadersOf(requestDefaults: unknown): Record<string, string> {
  const raw = (requestDefaults as { headers?: unknown } | null)?.headers;
  if (raw === undefined || raw === null) return {};
  const parsed = Headers.safeParse(raw);
  if (!parsed.success) {
    throw new RunError('invalid_snapshot', `target headers are invalid: ${parsed.error.issues.map((i) => `headers.${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
