export { NotFoundError, InvalidInputError } from '@poolbench/db';

/** The request is valid but conflicts with the current state (duplicate name, run already finished). */
export class ConflictError extends Error {
  readonly code = 'conflict';
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** Allowed by role but not by policy (e.g. a host outside the team allowlist). */
export class PolicyError extends Error {
  readonly code = 'policy';
  constructor(message: string) {
    super(message);
    this.name = 'PolicyError';
  }
}
