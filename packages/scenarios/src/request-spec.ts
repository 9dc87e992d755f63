import { z } from 'zod';
import { LIMITS } from './limits';
import { durationMs } from './common-schemas';
import { whenNumbers } from './check-when';
import { jsonBodyStats } from './json-body-stats';
import { CheckSchema, ExtractSchema } from './flow-schema';

// Conservative character sets: values reach the script only as JSON literals, but a narrow
// grammar also keeps metric tags and URLs readable.
// `{{name}}` variables may stand for path segments; the runtime fills them URL-encoded.
const PATH_RE = /^\/(?:[A-Za-z0-9\-._~/%!$&'()*+,;=:@]|\{\{[A-Za-z_][A-Za-z0-9_]{0,31}\}\})*$/;
const NAME_RE = /^[A-Za-z0-9 _.:\-/]+$/;
const QUERY_KEY_RE = /^[A-Za-z0-9_.\-[\]]+$/;
const HEADER_NAME_RE = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/;
// Visible ASCII plus space and tab: no CR/LF, so no header injection.
const HEADER_VALUE_RE = /^[\t\x20-\x7e]*$/;
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
// the same names for JSON Schema, case-insensitive without flags: host → [Hh][Oo][Ss][Tt]
const RESERVED_HEADERS_PATTERN = `^(${[...RESERVED_HEADERS]
  .map((h) => [...h].map((c) => (/[a-z]/.test(c) ? `[${c.toUpperCase()}${c}]` : c)).join(''))
  .join('|')})$`;

/**
 * |min|, |max| ≤ 10^15 keeps max − min + 1 an exact double, so every integer in the range is
 * drawn with the same probability; a bound past 2^53 would be rounded on its way in anyway.
 */
const RANDOM_INT_LIMIT = 1e15;
const RandomIntBound = z
  .number()
  .min(-RANDOM_INT_LIMIT, `must be at least -${RANDOM_INT_LIMIT}`)
  .max(RANDOM_INT_LIMIT, `must be at most ${RANDOM_INT_LIMIT}`)
  // zod's int also refuses |n| > 2^53; past the bounds the range is the one problem to name
  .int({
    error: (iss) =>
      typeof iss.input !== 'number' || Math.abs(iss.input) <= RANDOM_INT_LIMIT
        ? 'must be a whole number'
        : `must be ${iss.input > 0 ? `at most ${RANDOM_INT_LIMIT}` : `at least -${RANDOM_INT_LIMIT}`}`,
  });

export const RandomIntSchema = z
  .strictObject({
    randomInt: z
      .strictObject({
        min: RandomIntBound,
        max: RandomIntBound,
      })
      .refine((r) => r.min <= r.max, {
        message: 'min must not be greater than max',
        path: ['min'],
        when: whenNumbers('min', 'max'),
      })
      // JSON Schema cannot compare two fields: stated for people and as an extension for tools
      .meta({ description: 'min ≤ max', 'x-constraint': 'min <= max' }),
  })
  .describe('a fresh uniformly distributed integer in [min, max] for every request (min ≤ max)');

export const QueryValueSchema = z.union([
  z.string().max(1024, 'must be at most 1024 characters'),
  z.number().finite(),
  z.boolean(),
  RandomIntSchema,
]);

export const BodySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({
    kind: z.literal('json'),
    // every VU holds its own copy (and far more as parsed JSON, see payload-memory.ts)
    value: z.json().superRefine((v, ctx) => {
      const { bytes } = jsonBodyStats(v);
      if (bytes > LIMITS.maxJsonBodyBytes) {
        ctx.addIssue({
          code: 'custom',
          message: `must be at most ${LIMITS.maxJsonBodyBytes} bytes (1 MiB) as JSON; this one is ${bytes} bytes: use a bytes body for large uploads`,
        });
      }
    }),
  }),
  z.strictObject({
    kind: z.literal('bytes'),
    sizeBytes: z
      .number()
      .int('must be a whole number of bytes')
      .min(1, 'must be at least 1 byte')
      .max(LIMITS.maxPayloadBytes, `must be at most ${LIMITS.maxPayloadBytes} bytes (16 MiB)`),
    contentType: z
      .string()
      .regex(HEADER_VALUE_RE, 'must be printable ASCII')
      .default('application/octet-stream'),
  }),
]);

export const PrioritySchema = z.strictObject({
  header: z
    .string()
    .regex(HEADER_NAME_RE, 'must be a valid HTTP header name')
    .default('X-Priority'),
  value: z
    .string()
    .min(1)
    .max(64)
    .regex(HEADER_VALUE_RE, 'must be printable ASCII')
    .default('high'),
  fraction: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1'),
});

/** The HTTP methods a scenario's request or a target's default request may use. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/** One HTTP request of a scenario. Base URLs come from the worker at run time, never from here. */
export const RequestSpecSchema = z
  .strictObject({
    /** metric tag `name`; defaults to "METHOD path" so random query values do not add series */
    name: z
      .string()
      .min(1)
      .max(64, 'must be at most 64 characters')
      .regex(NAME_RE, 'may contain letters, digits, space and _ . : - / only')
      .optional(),
    method: z.enum(HTTP_METHODS).default('GET'),
    path: z
      .string()
      .max(512, 'must be at most 512 characters')
      .regex(
        PATH_RE,
        'must start with / and contain no query, fragment or spaces (use query for parameters)',
      ),
    query: z
      .record(
        z.string().regex(QUERY_KEY_RE, 'query keys may contain letters, digits and _ . - [ ] only'),
        QueryValueSchema,
      )
      .default({}),
    headers: z
      .record(
        z
          .string()
          .regex(HEADER_NAME_RE, 'must be a valid HTTP header name')
          .refine(
            (h) => !RESERVED_HEADERS.has(h.toLowerCase()),
            'is set by k6 itself and may not be overridden',
          )
          .meta({ not: { pattern: RESERVED_HEADERS_PATTERN } }),
        z.string().max(4096).regex(HEADER_VALUE_RE, 'must be printable ASCII without line breaks'),
      )
      .default({}),
    body: BodySchema.default({ kind: 'none' }),
    timeoutMs: durationMs({ min: 1, max: LIMITS.maxRequestTimeoutMs }).default(60_000),
    priority: PrioritySchema.optional(),
    /** flows: values taken from this request's response, as variables for the requests after it */
    extract: z
      .array(ExtractSchema)
      .max(
        LIMITS.maxExtractsPerRequest,
        `may hold at most ${LIMITS.maxExtractsPerRequest} extractions`,
      )
      .optional(),
    /** what the response must satisfy; a failed check counts the request as failed */
    checks: z
      .array(CheckSchema)
      .max(LIMITS.maxChecksPerRequest, `may hold at most ${LIMITS.maxChecksPerRequest} checks`)
      .optional(),
    /** flows: pause after this request, before the next step */
    thinkTimeMs: durationMs({ min: 0, max: LIMITS.maxThinkTimeMs }).optional(),
    /** relative share in the request mix */
    weight: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(1000, 'must be at most 1000')
      .default(1),
  })
  .refine((r) => !((r.method === 'GET' || r.method === 'HEAD') && r.body.kind !== 'none'), {
    message: 'GET and HEAD requests cannot carry a body',
    path: ['body'],
    when: (p) => {
      const v = p.value as { method?: unknown; body?: { kind?: unknown } } | undefined;
      return typeof v?.method === 'string' && typeof v.body?.kind === 'string';
    },
  })
  .meta({
    // a body only with a method that carries one (method defaults to GET)
    anyOf: [
      {
        required: ['method'],
        properties: { method: { enum: ['POST', 'PUT', 'PATCH', 'DELETE'] } },
      },
      { properties: { body: { properties: { kind: { const: 'none' } } } } },
    ],
  });

export type RequestSpec = z.infer<typeof RequestSpecSchema>;
export type RequestSpecInput = z.input<typeof RequestSpecSchema>;

export const RequestMixSchema = z
  .array(RequestSpecSchema)
  .min(1, 'needs at least one request')
  .max(LIMITS.maxRequestsInMix, `may hold at most ${LIMITS.maxRequestsInMix} requests`);

export function requestTagName(r: RequestSpec): string {
  return r.name ?? `${r.method} ${r.path}`;
}
