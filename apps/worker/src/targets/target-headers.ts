import { z } from 'zod';
import { RunError } from '../runs/run-error';

const Headers = z.record(
  z.string().regex(/^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/, 'is not a valid header name'),
  z
    .string()
    .max(4096)
    .regex(/^[\t\x20-\x7e]*$/, 'must be printable ASCII'),
);

const WithHeaders = z.looseObject({ headers: z.unknown().optional() });

/**
 * A URL target's non-secret headers, stored in requestDefaults.headers by the web app; sent by
 * k6 on every request of the run (issue 12). Parsed here because the column is plain JSON.
 */
export function targetHeadersOf(requestDefaults: unknown): Record<string, string> {
  // The raw column, not its parsed form: a bad header must fail the run (invalid_snapshot), not vanish.
  const raw = WithHeaders.safeParse(requestDefaults).data?.headers;
  if (raw === undefined || raw === null) return {};
  const parsed = Headers.safeParse(raw);
  if (!parsed.success) {
    throw new RunError(
      'invalid_snapshot',
      `target headers are invalid: ${parsed.error.issues.map((i) => `headers.${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}
