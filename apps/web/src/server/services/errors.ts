import { AppError } from '@poolbench/contracts/errors';

export { NotFoundError, InvalidInputError } from '@poolbench/db';
export { AppError } from '@poolbench/contracts/errors';

/** The request is valid but conflicts with the current state (duplicate name, run already finished). */
export class ConflictError extends AppError<'conflict'> {
  constructor(message: string) {
    super('conflict', message);
    this.name = 'ConflictError';
  }
}

/** Allowed by role but not by policy (e.g. a host outside the team allowlist). */
export class PolicyError extends AppError<'policy_denied'> {
  constructor(message: string) {
    super('policy_denied', message);
    this.name = 'PolicyError';
  }
}
