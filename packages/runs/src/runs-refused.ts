import { InvalidInputError } from '@poolbench/db';

/**
 * New runs refused by the team's policy or the fleet's limits (scripts turned off, too many runs
 * in one experiment, too much load queued), as opposed to a request that is wrong in itself or
 * a race another process won. `transient`: the same runs may be accepted later without anyone
 * changing a setting (the queue drains, a worker comes online).
 */
export class RunsRefusedError extends InvalidInputError {
  constructor(
    field: string,
    message: string,
    readonly transient: boolean,
  ) {
    super(field, message);
  }
}
