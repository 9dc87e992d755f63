/**
 * The one table of PoolBench's stable error codes: what each means over tRPC (the web UI), REST
 * (problem+json for CI) and the CLI (its exit code). Clients branch on `code`, never on the text.
 * Adding a code here is the only way to add one; every mapper reads this table.
 */
export type TrpcCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_SUPPORTED'
  | 'CONFLICT'
  | 'UNPROCESSABLE_CONTENT'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR';

/** The CLI's exit codes for an API error: 2 = the caller's input, 3 = PoolBench or infrastructure. */
export type CliExit = 'usage' | 'infra';

export interface ErrorCodeSpec {
  trpc: TrpcCode;
  http: number;
  title: string;
  cli: CliExit;
}

export const ERROR_CODES = {
  token_missing: { trpc: 'UNAUTHORIZED', http: 401, title: 'Missing API token', cli: 'infra' },
  token_malformed: { trpc: 'UNAUTHORIZED', http: 401, title: 'Malformed API token', cli: 'infra' },
  token_unknown: { trpc: 'UNAUTHORIZED', http: 401, title: 'Unknown API token', cli: 'infra' },
  token_revoked: { trpc: 'UNAUTHORIZED', http: 401, title: 'Revoked API token', cli: 'infra' },
  token_expired: { trpc: 'UNAUTHORIZED', http: 401, title: 'Expired API token', cli: 'infra' },
  token_creator_removed: {
    trpc: 'UNAUTHORIZED',
    http: 401,
    title: 'API token creator left the team',
    cli: 'infra',
  },
  scope_missing: { trpc: 'FORBIDDEN', http: 403, title: 'Missing scope', cli: 'infra' },
  creator_role_insufficient: {
    trpc: 'FORBIDDEN',
    http: 403,
    title: "Token creator's role too low",
    cli: 'infra',
  },
  policy_denied: {
    trpc: 'FORBIDDEN',
    http: 403,
    title: 'Not allowed by team policy',
    cli: 'infra',
  },
  not_found: { trpc: 'NOT_FOUND', http: 404, title: 'Not found', cli: 'usage' },
  method_not_allowed: {
    trpc: 'METHOD_NOT_SUPPORTED',
    http: 405,
    title: 'Method not allowed',
    cli: 'infra',
  },
  conflict: { trpc: 'CONFLICT', http: 409, title: 'Conflict', cli: 'infra' },
  idempotency_in_progress: {
    trpc: 'CONFLICT',
    http: 409,
    title: 'Request with this Idempotency-Key still in progress',
    cli: 'infra',
  },
  idempotency_key_reused: {
    trpc: 'UNPROCESSABLE_CONTENT',
    http: 422,
    title: 'Idempotency-Key reused with a different request',
    cli: 'usage',
  },
  invalid_json: { trpc: 'BAD_REQUEST', http: 400, title: 'Invalid JSON', cli: 'usage' },
  payload_too_large: {
    trpc: 'PAYLOAD_TOO_LARGE',
    http: 413,
    title: 'Request body too large',
    cli: 'usage',
  },
  // tRPC answers its own input validation with BAD_REQUEST; ours says the same.
  validation_failed: { trpc: 'BAD_REQUEST', http: 422, title: 'Validation failed', cli: 'usage' },
  rate_limited: { trpc: 'TOO_MANY_REQUESTS', http: 429, title: 'Too many requests', cli: 'infra' },
  unavailable: {
    trpc: 'SERVICE_UNAVAILABLE',
    http: 503,
    title: 'Service unavailable',
    cli: 'infra',
  },
  internal: { trpc: 'INTERNAL_SERVER_ERROR', http: 500, title: 'Internal error', cli: 'infra' },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** The problem+json `type` URI of a code (stable: documented in the OpenAPI document). */
export function problemType(code: ErrorCode): string {
  return `https://poolbench.dev/problems/${code.replaceAll('_', '-')}`;
}

/**
 * What the CLI does with an error code it received; codes it made up itself (`network`, `http_502`)
 * and codes of a newer server fall back to the HTTP status, so an old CLI keeps its meaning.
 */
export function cliExitFor(code: string, httpStatus: number): CliExit {
  if (isErrorCode(code)) return ERROR_CODES[code].cli;
  return [400, 404, 422].includes(httpStatus) ? 'usage' : 'infra';
}
