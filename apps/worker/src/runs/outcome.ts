import type { K6EndReason } from '@poolbench/k6';
import type { TerminalStatus } from '@poolbench/runs';
import { redactUrlsIn } from '@poolbench/contracts/net';

/** Why a run's abort signal fired: a user's cancel, the worker's shutdown, or the run was ended elsewhere. */
export type AbortReason = 'cancel' | 'shutdown' | 'lost';

export interface K6Ending {
  endReason: K6EndReason;
  exitCode: number | null;
  k6Error?: string;
  stderrTail: string[];
  /** the reason of the run's abort signal, when it fired */
  abortReason: AbortReason | null;
  timeoutMs: number;
  /** `timeoutMs` is a script's declared stop time, not a planned length plus a margin */
  stopTime?: boolean;
  /** the scenario's thresholds as evaluated on the run's summary (absent: none evaluated) */
  thresholds?: readonly ThresholdOutcome[];
}

/** One evaluated threshold, as @poolbench/scenarios' evaluateThresholds returns it. */
export interface ThresholdOutcome {
  metric: string;
  expr: string;
  observed: number | null;
  pass: boolean;
}

export interface Outcome {
  status: TerminalStatus;
  errorCode: string | null;
  errorMessage: string | null;
}

/**
 * A run that measured to its end: succeeded, or thresholds_failed when it crossed a threshold
 * (k6's own semantics: exit code 99), although its measurements are valid. Single and distributed
 * runs both end here.
 */
export function completedOutcome(thresholds: readonly ThresholdOutcome[]): Outcome {
  const failed = thresholds.filter((t) => !t.pass);
  if (failed.length === 0) return { status: 'succeeded', errorCode: null, errorMessage: null };
  const list = failed
    .map((t) =>
      t.metric.startsWith('insight:')
        ? `${t.metric} ${t.expr} (the run shows it)`
        : `${t.metric} ${t.expr} (observed ${t.observed === null ? 'nothing' : roundObserved(t.observed)})`,
    )
    .join('; ');
  return {
    status: 'thresholds_failed',
    errorCode: 'thresholds_failed',
    errorMessage: `${failed.length} of ${thresholds.length} thresholds failed: ${list}`.slice(
      0,
      2000,
    ),
  };
}

/** The run's final status from how k6 ended and why it was stopped; pure, table-tested. */
export function outcomeFromK6(e: K6Ending): Outcome {
  switch (e.endReason) {
    case 'completed':
      return completedOutcome(e.thresholds ?? []);
    case 'timed_out':
      return {
        status: 'timed_out',
        errorCode: 'timed_out',
        errorMessage: e.stopTime
          ? `the script was still running at its stop time of ${Math.round(e.timeoutMs / 1000)} s (its scenarios, setup or teardown) and was stopped; partial data kept`
          : `the run exceeded its wall-clock limit of ${Math.round(e.timeoutMs / 1000)} s (scenario length + margin); partial data kept`,
      };
    case 'aborted':
      if (e.abortReason === 'shutdown')
        return {
          status: 'aborted_system',
          errorCode: 'worker_shutdown',
          errorMessage: 'the worker was shut down during the run; partial data kept',
        };
      if (e.abortReason === 'lost')
        return {
          status: 'aborted_system',
          errorCode: 'worker_lost',
          errorMessage:
            'the run was ended elsewhere while it ran (its heartbeat was lost); partial data kept',
        };
      return {
        status: 'canceled',
        errorCode: 'canceled',
        errorMessage: 'canceled by a user; partial data kept',
      };
    case 'k6_error': {
      const tail = e.stderrTail.slice(-5).join(' | ');
      const message = `k6 ended with exit code ${e.exitCode ?? 'unknown'}${e.k6Error ? ` (${e.k6Error})` : ''}${tail ? `: ${tail}` : ''}`;
      return {
        status: 'failed',
        errorCode: 'k6_error',
        errorMessage: redactUrlsIn(message).slice(0, 2000),
      };
    }
  }
}

function roundObserved(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
}

/** The final status of a run that failed before or around k6 (preparation errors, exceptions). */
export function outcomeFromError(
  code: string,
  message: string,
  abortReason: AbortReason | null,
): Outcome {
  if (abortReason === 'shutdown')
    return { status: 'aborted_system', errorCode: 'worker_shutdown', errorMessage: message };
  if (abortReason === 'cancel' || code === 'canceled')
    return { status: 'canceled', errorCode: 'canceled', errorMessage: message };
  return { status: 'failed', errorCode: code, errorMessage: message };
}
