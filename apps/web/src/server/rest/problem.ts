import {
  AppError,
  ERROR_CODES,
  problemType,
  type ErrorCode,
  type FieldProblem,
} from '@poolbench/contracts/errors';

/** Stable error codes of the REST API (the shared table's HTTP column); clients branch on `code`, never on the text. */
export const PROBLEM_CODES = Object.fromEntries(
  Object.entries(ERROR_CODES).map(([code, spec]) => [code, spec.http]),
) as { [C in ErrorCode]: (typeof ERROR_CODES)[C]['http'] };
export type ProblemCode = ErrorCode;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  problems?: FieldProblem[];
}

/** An AppError raised by the REST layer itself (auth, routing, idempotency); the mapper treats it like any other. */
export class ProblemError extends AppError {
  constructor(
    code: ProblemCode,
    detail: string,
    extra: { problems?: FieldProblem[]; headers?: Record<string, string> } = {},
  ) {
    super(code, detail, extra);
    this.name = 'ProblemError';
  }
}

/** The problem+json body of an AppError, from the one table of codes. */
export function problemBody(err: AppError): ProblemBody {
  const spec = ERROR_CODES[err.code];
  return {
    type: problemType(err.code),
    title: spec.title,
    status: spec.http,
    detail: err.message,
    code: err.code,
    ...(err.problems.length ? { problems: err.problems } : {}),
  };
}

export function problemResponse(p: AppError, headers: Record<string, string> = {}): Response {
  const body = problemBody(p);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      ...headers,
      ...p.headers,
    },
  });
}
