import { cliExitFor } from '@poolbench/contracts/errors';
import { ApiError } from './client';

export const EXIT = { pass: 0, failed: 1, usage: 2, infra: 3 } as const;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** The exit code for an error of a CLI run: API errors by their code (ERROR_CODES), the rest is infrastructure. */
export function exitForError(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof ApiError) return EXIT[cliExitFor(err.problem.code, err.problem.status)];
  return EXIT.infra;
}
