import { ERROR_CODES, type ErrorCode } from './error-codes';

/** One field's problem: `path` is the dotted path in the request (`scenario.params.vus`), '' for the whole input. */
export interface FieldProblem {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  /** field problems, carried as data so no mapper ever parses them out of `message` */
  problems?: FieldProblem[];
  cause?: unknown;
  /** extra response headers for REST (Retry-After, WWW-Authenticate) */
  headers?: Record<string, string>;
}

/**
 * The one error model of PoolBench (web, worker, CLI): a stable code, a message a user can act on,
 * field problems as data and the cause. Services throw it (or a named subclass); the tRPC
 * formatter, the REST problem mapper and the CLI translate it with ERROR_CODES and nothing else.
 */
export class AppError<C extends string = ErrorCode> extends Error {
  readonly code: C;
  readonly problems: FieldProblem[];
  readonly headers: Record<string, string>;

  constructor(code: C, message: string, opts: AppErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.problems = opts.problems ?? [];
    this.headers = opts.headers ?? {};
  }
}

/** An input error on one field: the message says "<path>: <reason>", the path also travels as data. */
export function fieldError(path: string, reason: string): AppError<'validation_failed'> {
  return new AppError('validation_failed', path ? `${path}: ${reason}` : reason, {
    problems: [{ path, message: reason }],
  });
}

/** Prefix every problem path (a nested schema's problems under the request field that holds it). */
export function prefixProblems(problems: readonly FieldProblem[], prefix: string): FieldProblem[] {
  if (!prefix) return [...problems];
  return problems.map((p) => ({
    path: p.path ? `${prefix}.${p.path}` : prefix,
    message: p.message,
  }));
}

/** Whatever was thrown, as an AppError; anything unknown is `internal` and keeps its cause for the log. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError && Object.hasOwn(ERROR_CODES, err.code)) return err as AppError;
  return new AppError('internal', 'something went wrong on the server; the error was logged', {
    cause: err,
  });
}
