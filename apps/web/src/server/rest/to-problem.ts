import { z } from 'zod';
import { flattenIssues } from '@poolbench/scenarios';
import { AppError, toAppError } from '@poolbench/contracts/errors';

/**
 * Whatever a REST operation threw, as the AppError its problem+json is built from (problem.ts).
 * Field paths come from the error's data; anything unknown is logged and answered as `internal`.
 */
export function toProblem(err: unknown): AppError {
  if (err instanceof z.ZodError) {
    const problems = flattenIssues(err.issues);
    return new AppError(
      'validation_failed',
      problems.map((p) => `${p.path || '(body)'}: ${p.message}`).join('; '),
      { problems, cause: err },
    );
  }
  const app = toAppError(err);
  if (app.code === 'internal' && app !== err) console.error('[rest] unexpected error', err);
  return app;
}
