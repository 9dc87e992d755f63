import { z } from 'zod';
import { ProblemSchema } from './schemas';
import { API_PREFIX } from './handle-rest';
import { OPERATIONS } from './operations';
import { PROBLEM_CODES } from './problem';
import { ID_CHARS_PATTERN, ID_MAX_LENGTH } from '~/lib/schemas/ids';

type Json = Record<string, unknown>;

/** A string with no NUL character: Postgres stores none in text or jsonb, so the server refuses one. */
export const NO_NUL = '^[^\\u0000]*$';

/**
 * Every input string the server reads has a pattern: its own, or NO_NUL. The server checks
 * every string it parsed for a NUL (handle-rest.ts), so the document says so where no pattern of
 * the field's own excludes one already; enum and const strings need none.
 */
function statesNoNul(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(statesNoNul);
  if (!v || typeof v !== 'object') return v;
  const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, statesNoNul(x)])) as Json;
  const isString = o.type === 'string' || (Array.isArray(o.type) && o.type.includes('string'));
  if (isString && o.pattern === undefined && o.enum === undefined && o.const === undefined)
    o.pattern = NO_NUL;
  return o;
}

/**
 * A schema as JSON Schema. Recursive parts come back under `$defs` with refs relative to the
 * schema's root; inside an OpenAPI document they must live in components, so they are moved
 * there (prefixed with the owner's name) and the refs rewritten.
 */
function schemaOf(s: z.ZodType, io: 'input' | 'output', owner = 'Inline', components?: Json): Json {
  const json = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  const { $schema: _ignored, $defs, ...rest } = (io === 'input' ? statesNoNul(json) : json) as Json;
  if (!$defs) return rest;
  if (!components) throw new Error(`schema of ${owner} is recursive; pass components`);
  const rewrite = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(rewrite)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v).map(([k, x]) => [
              k,
              k === '$ref' && typeof x === 'string'
                ? x.replace('#/$defs/', `#/components/schemas/${owner}_`)
                : rewrite(x),
            ]),
          )
        : v;
  for (const [name, def] of Object.entries($defs as Json))
    components[`${owner}_${name}`] = rewrite(def);
  return rewrite(rest) as Json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

/**
 * OpenAPI 3.1 document generated from the operation table and its zod schemas. OpenAPI 3.1
 * schemas are JSON Schema 2020-12, which is what z.toJSONSchema emits, so nothing is translated.
 */
export function buildOpenApi(serverUrl = ''): Json {
  const schemas: Json = { Problem: schemaOf(ProblemSchema, 'output') };
  const paths: Record<string, Json> = {};
  for (const o of OPERATIONS) {
    if (o.body && o.bodyName) schemas[o.bodyName] = schemaOf(o.body, 'input', o.bodyName, schemas);
    schemas[o.responseName] = schemaOf(o.response, 'output', o.responseName, schemas);
    const pathParams = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1]!,
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: ID_CHARS_PATTERN, maxLength: ID_MAX_LENGTH },
    }));
    const queryParams =
      o.query && o.queryRules
        ? [
            {
              name: 'query',
              in: 'query',
              style: 'form',
              explode: true,
              required: false,
              schema: { ...schemaOf(o.query, 'input'), ...o.queryRules },
            },
          ]
        : o.query
          ? Object.entries(o.query.shape).map(([name, s]) => {
              const js = schemaOf(s as z.ZodType, 'input');
              return {
                name,
                in: 'query',
                required: !(s as z.ZodType).safeParse(undefined).success,
                schema: js,
                ...(js.description ? { description: js.description } : {}),
              };
            })
          : [];
    const headers = o.idempotent
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'retries with the same key and body return the first response (header Idempotent-Replayed: true) instead of acting again',
            schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$' },
          },
        ]
      : [];
    const responses: Json = {
      [String(o.status)]: {
        description: 'OK',
        content: { 'application/json': { schema: ref(o.responseName) } },
      },
      '401': problem('missing, malformed, unknown, revoked or expired token (code token_*)'),
      '403': problem(
        'the token lacks the scope (scope_missing) or team policy forbids it (policy_denied)',
      ),
      '404': problem("no such resource in the token's team (not_found)"),
      '422': problem('invalid input (validation_failed, with problems[] per field)'),
      '429': {
        ...problem('rate limit of the token exceeded (rate_limited); see Retry-After'),
        headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds' } },
      },
      '500': problem('unexpected server error (internal)'),
    };
    if (o.body) responses['400'] = problem('the body is not JSON (invalid_json)');
    if (o.idempotent || o.method === 'POST')
      responses['409'] = problem(
        'conflict with existing state, or the same Idempotency-Key is still in progress',
      );
    (paths[o.path] ??= {})[o.method.toLowerCase()] = {
      operationId: o.operationId,
      summary: o.summary,
      ...(o.description ? { description: o.description } : {}),
      security: [{ bearer: [] }],
      'x-required-scope': o.scope,
      parameters: [...pathParams, ...queryParams, ...headers],
      ...(o.body && o.bodyName
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: ref(o.bodyName) } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'PoolBench API',
      version: '1.0.0',
      description: `Start connection-pool benchmarks from CI and gate on regressions. Authenticate with a team API token (Settings → API tokens) as \`Authorization: Bearer pb_…\`. Errors are application/problem+json with a stable \`code\`: ${Object.keys(PROBLEM_CODES).join(', ')}. The \`poolbench\` CLI that wraps this API is served by the same server, without a token, as one dependency-free file: \`GET ${API_PREFIX}/cli/poolbench.mjs\` (ETag = sha256, header X-PoolBench-CLI-Version); run it with \`node poolbench.mjs run --help\`.`,
    },
    servers: [{ url: `${serverUrl}${API_PREFIX}` }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'a PoolBench API token, pb_ followed by 38 characters',
        },
      },
      schemas,
    },
    paths,
  };
}
