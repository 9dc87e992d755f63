import { z } from 'zod';
import { InvalidInputError, NotFoundError, SecretKeyError } from '@poolbench/db';
import { ScenarioValidationError, flattenIssues } from '@poolbench/scenarios';
import { ConflictError, PolicyError } from '~/server/services/errors';
import { ProblemError } from './problem';

/** Domain errors become problems here and only here; anything unknown is a 500 without details. */
export function toProblem(err: unknown): ProblemError {
  if (err instanceof ProblemError) return err;
  if (err instanceof z.ZodError) {
    const problems = flattenIssues(err.issues);
    return new ProblemError('validation_failed', problems.map((p) => `${p.path || '(body)'}: ${p.message}`).join('; '), { problems });
  }
  if (err instanceof ScenarioValidationError) {
    const problems = err.problems.map((p) => ({ path: p.path ? `scenario.${p.path}` : 'scenario', message: p.message }));
    return new ProblemError('validation_failed', err.message, { problems });
  }
  if (err instanceof InvalidInputError) return new ProblemError('validation_failed', err.message, { problems: [{ path: err.path, message: err.message.slice(err.path.length + 2) }] });
  if (err instanceof NotFoundError) return new ProblemError('not_found', err.message);
  if (err instanceof ConflictError) return new ProblemError('conflict', err.message);
  if (err instanceof PolicyError) return new ProblemError('policy_denied', err.message);
  if (err instanceof SecretKeyError) return new ProblemError('unavailable', `the server cannot open target secrets: ${err.message}`);
  console.error('[rest] unexpected error', err);
  return new ProblemError('internal', 'something went wrong on the server; the error was logged');
}
