import { redactUrlsIn } from '@poolbench/scenarios/net';

/**
 * A failure with a stable code the UI and API show, and a message a user can act on. Anything
 * else thrown during a run is reported as `internal_error`.
 */
export type RunErrorCode =
  | 'invalid_payload'
  | 'run_not_found'
  | 'invalid_snapshot'
  | 'target_not_allowed'
  | 'target_unresolvable'
  | 'target_setup_failed'
  | 'target_exited'
  | 'target_not_ready'
  | 'apply_hook_failed'
  | 'secret_unavailable'
  | 'k6_error'
  | 'k6_missing'
  | 'canceled'
  | 'timed_out'
  | 'worker_shutdown'
  | 'worker_lost'
  | 'load_generators_unavailable'
  | 'segment_failed'
  | 'internal_error';

export class RunError extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
  ) {
    // Messages are stored and shown to the team: URLs in them lose credentials and query strings.
    super(redactUrlsIn(message));
    this.name = 'RunError';
  }
}
