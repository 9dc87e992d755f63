import { K6BinaryError, SandboxUnavailableError } from '@poolbench/k6';
import { AppError } from '@poolbench/contracts/errors';
import { redactUrlsIn } from '@poolbench/contracts/net';

/**
 * Why a run failed: a stable code stored on the run (Run.errorCode) that the UI, REST and CLI show,
 * with a message a user can act on. Every code here is raised somewhere in the worker; anything
 * else thrown during a run is reported as `internal_error`. (A job payload without a valid run id
 * has no run to record a code on: BullMQ fails that job unrecoverably instead.)
 */
export type RunErrorCode =
  | 'invalid_snapshot'
  | 'target_not_allowed'
  | 'target_unresolvable'
  | 'target_setup_failed'
  | 'lab_data_too_large'
  | 'target_exited'
  | 'target_not_ready'
  | 'apply_hook_failed'
  | 'secret_unavailable'
  | 'k6_error'
  | 'k6_missing'
  | 'sandbox_unavailable'
  | 'scripts_disabled'
  | 'canceled'
  | 'timed_out'
  | 'worker_shutdown'
  | 'worker_lost'
  | 'load_generators_unavailable'
  | 'segment_failed'
  | 'internal_error';

export class RunError extends AppError<RunErrorCode> {
  constructor(code: RunErrorCode, message: string, cause?: unknown) {
    // Messages are stored and shown to the team: URLs in them lose credentials and query strings.
    super(code, redactUrlsIn(message), { cause });
    this.name = 'RunError';
  }
}

/**
 * Whatever a run threw, as the RunError recorded on it. A database error's own text (constraint
 * and table names, SQL) is for the worker's log, not for the team's run page.
 */
export function toRunError(err: unknown): RunError {
  if (err instanceof RunError) return err;
  if (err instanceof K6BinaryError) return new RunError('k6_missing', err.message, err);
  if (err instanceof SandboxUnavailableError)
    return new RunError(
      'sandbox_unavailable',
      `this worker cannot run a team's own k6 script: ${err.message}`,
      err,
    );
  if (isDatabaseError(err))
    return new RunError(
      'internal_error',
      "PoolBench's database refused a write of this run; the worker's log has the details",
      err,
    );
  return new RunError('internal_error', (err as Error)?.message ?? String(err), err);
}

/** Prisma's errors (known, unknown, validation, driver adapter) and pg's server errors. */
function isDatabaseError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (/^(Prisma|DriverAdapter)/.test(err.name) || 'clientVersion' in err) return true;
  return (
    'severity' in err &&
    'code' in err &&
    typeof err.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(err.code)
  );
}
