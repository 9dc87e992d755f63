import { authenticateApiToken } from '~/server/services/api-tokens/authenticate-api-token';
import { refuseNul } from '@poolbench/contracts/errors';
import { SCOPE_MIN_ROLE, scopeAllowedFor } from '~/lib/api-scopes';
import { checkContentLength, readBodyLimited } from '~/server/security/body-limit';
import { IdSchema } from '~/lib/schemas/ids';
import type { RestDeps } from './deps';
import {
  IDEMPOTENCY_KEY_RE,
  requestHash,
  withIdempotency,
  type StoredResponse,
} from './idempotency';
import { allowedMethods, matchOperation } from './operations';
import { ProblemError, problemResponse } from './problem';
import { rateLimit, type RateLimitResult } from './rate-limit';
import { toProblem } from './to-problem';

export const API_PREFIX = '/api/v1';
/** Set by server.mjs (and only there) to the method of a request Next.js cannot route. */
export const UNSUPPORTED_METHOD_HEADER = 'x-poolbench-unsupported-method';
const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const AUTH_DETAIL = {
  malformed: [
    'token_malformed',
    'the token is not a PoolBench API token (pb_…); check for a typo or a truncated copy',
  ],
  unknown: ['token_unknown', 'no such API token; create one in Settings → API tokens'],
  revoked: [
    'token_revoked',
    'this API token was revoked; create a new one in Settings → API tokens',
  ],
  expired: [
    'token_expired',
    'this API token has expired; create a new one in Settings → API tokens',
  ],
  creator_removed: [
    'token_creator_removed',
    'the person who created this API token is no longer a member of its team, so the token is no longer valid; a current admin must create a new one in Settings → API tokens',
  ],
} as const;

function rateHeaders(r: RateLimitResult | null): Record<string, string> {
  return r
    ? {
        'RateLimit-Limit': String(r.limit),
        'RateLimit-Remaining': String(r.remaining),
        'RateLimit-Reset': String(r.resetSec),
      }
    : {};
}

function respond(res: StoredResponse, headers: Record<string, string>): Response {
  const problem = res.status >= 400;
  return new Response(JSON.stringify(res.body), {
    status: res.status,
    headers: {
      'Content-Type': problem ? 'application/problem+json' : 'application/json',
      'Cache-Control': 'no-store',
      ...headers,
    },
  });
}

/** The whole REST API: route, authenticate, limit, authorize, validate, run, answer. */
export async function handleRest(req: Request, deps: RestDeps): Promise<Response> {
  let limits: RateLimitResult | null = null;
  try {
    checkContentLength(req.headers);
    const url = new URL(req.url);
    const path = url.pathname.startsWith(API_PREFIX)
      ? url.pathname.slice(API_PREFIX.length)
      : url.pathname;
    // server.mjs hands methods Next.js cannot route (TRACE, …) over as a marked GET
    // (only ever a method Next.js does not route, so the header can do nothing but earn a 405)
    const marked = req.headers.get(UNSUPPORTED_METHOD_HEADER)?.toUpperCase();
    const method = marked && !ROUTED_METHODS.includes(marked) ? marked : req.method;
    const match = matchOperation(method, path);
    if (match === null)
      throw new ProblemError(
        'not_found',
        `no API route ${method} ${url.pathname}; see /api/openapi.json`,
      );
    if (match === 'method') {
      const allow = allowedMethods(path).join(', ');
      if (method === 'OPTIONS')
        return new Response(null, { status: 204, headers: { Allow: allow } });
      throw new ProblemError(
        'method_not_allowed',
        `${method} is not supported on ${url.pathname}; it allows ${allow}`,
        { headers: { Allow: allow } },
      );
    }
    const { op, params } = match;

    const auth = req.headers.get('authorization') ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
    if (!token) {
      throw new ProblemError('token_missing', 'send an API token as "Authorization: Bearer pb_…"', {
        headers: { 'WWW-Authenticate': 'Bearer realm="poolbench"' },
      });
    }
    const principal = await authenticateApiToken(deps.db, token);
    if (typeof principal === 'string') {
      const [code, detail] = AUTH_DETAIL[principal];
      throw new ProblemError(code, detail, {
        headers: { 'WWW-Authenticate': 'Bearer realm="poolbench", error="invalid_token"' },
      });
    }

    try {
      limits = await rateLimit(
        deps.redis(),
        principal.tokenId,
        deps.rateLimit.limit,
        deps.rateLimit.windowMs,
        (deps.now ?? Date.now)(),
      );
    } catch {
      limits = null; // Redis down: reads still work; a start then fails on enqueue with a clear error
    }
    if (limits && !limits.allowed) {
      throw new ProblemError(
        'rate_limited',
        `this token may make ${limits.limit} requests per ${deps.rateLimit.windowMs / 1000} s; retry in ${limits.resetSec} s`,
        {
          headers: { 'Retry-After': String(limits.resetSec) },
        },
      );
    }
    if (!principal.scopes.includes(op.scope))
      throw new ProblemError(
        'scope_missing',
        `this needs a token with the ${op.scope} scope; this one has ${principal.scopes.join(', ') || 'none'}`,
      );
    if (!scopeAllowedFor(principal.creatorRole, op.scope)) {
      throw new ProblemError(
        'creator_role_insufficient',
        `the ${op.scope} scope needs the token's creator to be at least ${SCOPE_MIN_ROLE[op.scope]} in the team; they are now ${principal.creatorRole}. Ask an admin to create a new token, or to restore their role`,
      );
    }

    for (const [k, v] of Object.entries(params)) {
      if (!IdSchema.safeParse(v).success) throw new ProblemError('not_found', `no ${k} "${v}"`);
    }
    const query = op.query ? op.query.parse(Object.fromEntries(url.searchParams)) : undefined;
    let raw: unknown = undefined;
    if (op.body) {
      const text = await readBodyLimited(req);
      try {
        raw = text.trim() === '' ? {} : JSON.parse(text);
      } catch {
        throw new ProblemError('invalid_json', 'the request body is not valid JSON');
      }
    }
    const body = op.body ? op.body.parse(raw) : undefined;
    // what the document states for every string it describes (NO_NUL in openapi.ts); an
    // undocumented query parameter was dropped by the parse and is not judged
    refuseNul(query);
    refuseNul(body);
    const run = async (): Promise<StoredResponse> => {
      const answer = await op.handle({ deps, principal, params, query, body });
      if (method !== 'GET') await deps.forgetAuth?.({ teamId: principal.teamId });
      return { status: op.status, body: answer };
    };

    const key = req.headers.get('idempotency-key');
    if (op.idempotent && key !== null) {
      if (!IDEMPOTENCY_KEY_RE.test(key)) {
        throw new ProblemError(
          'validation_failed',
          'Idempotency-Key must be 1 to 200 printable ASCII characters',
          {
            problems: [
              { path: 'Idempotency-Key', message: 'must be 1 to 200 printable ASCII characters' },
            ],
          },
        );
      }
      const res = await withIdempotency(
        deps.db,
        { teamId: principal.teamId, key, requestHash: requestHash(req.method, path, raw) },
        run,
        deps.idempotency,
      );
      return respond(res, {
        ...rateHeaders(limits),
        ...(res.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
      });
    }
    return respond(await run(), rateHeaders(limits));
  } catch (err) {
    return problemResponse(toProblem(err), rateHeaders(limits));
  }
}
