/** Stable error codes of the REST API; clients branch on `code`, never on the text. */
export const PROBLEM_CODES = {
  token_missing: 401,
  token_malformed: 401,
  token_unknown: 401,
  token_revoked: 401,
  token_expired: 401,
  token_creator_removed: 401,
  scope_missing: 403,
  creator_role_insufficient: 403,
  policy_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
  invalid_json: 400,
  validation_failed: 422,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
} as const;
export type ProblemCode = keyof typeof PROBLEM_CODES;

const TITLES: Record<ProblemCode, string> = {
  token_missing: 'Missing API token',
  token_malformed: 'Malformed API token',
  token_unknown: 'Unknown API token',
  token_revoked: 'Revoked API token',
  token_expired: 'Expired API token',
  token_creator_removed: 'API token creator left the team',
  scope_missing: 'Missing scope',
  creator_role_insufficient: "Token creator's role too low",
  policy_denied: 'Not allowed by team policy',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  conflict: 'Conflict',
  idempotency_in_progress: 'Request with this Idempotency-Key still in progress',
  idempotency_key_reused: 'Idempotency-Key reused with a different request',
  invalid_json: 'Invalid JSON',
  validation_failed: 'Validation failed',
  rate_limited: 'Too many requests',
  unavailable: 'Service unavailable',
  internal: 'Internal error',
};

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  problems?: { path: string; message: string }[];
}

/** Thrown anywhere below the REST handler; becomes an application/problem+json response. */
export class ProblemError extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    detail: string,
    readonly extra: { problems?: { path: string; message: string }[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.status = PROBLEM_CODES[code];
  }

  body(): ProblemBody {
    return {
      type: `https://poolbench.dev/problems/${this.code.replaceAll('_', '-')}`,
      title: TITLES[this.code],
      status: this.status,
      detail: this.message,
      code: this.code,
      ...(this.extra.problems ? { problems: this.extra.problems } : {}),
    };
  }
}

export function problemResponse(p: ProblemError, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(p.body()), {
    status: p.status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...headers, ...p.extra.headers },
  });
}
