import type { RunSegmentStatus } from '@poolbench/db';
import {
  completedOutcome,
  type Outcome,
  type AbortReason,
  type ThresholdOutcome,
} from '../outcome';
import type { GeneratorResult } from './run-generator';

interface SegmentEnd {
  index: number;
  status: RunSegmentStatus;
  workerId: string | null;
  errorMessage: string | null;
}

/**
 * The run's final status from its segments: a user's cancel or the leader's shutdown first, then
 * the first segment that failed (named with its worker: aborted_system, data of every segment
 * kept), then the leader's own k6 timing out; when every segment succeeded, the scenario's
 * thresholds on the merged run decide succeeded or thresholds_failed, as for a single k6.
 */
export function distributedOutcome(e: {
  segments: SegmentEnd[];
  own: Pick<GeneratorResult, 'result' | 'status'>;
  abortReason: AbortReason | null;
  timeoutMs: number;
  thresholds?: readonly ThresholdOutcome[];
}): Outcome {
  if (e.abortReason === 'cancel')
    return {
      status: 'canceled',
      errorCode: 'canceled',
      errorMessage: 'canceled by a user; every generator was stopped and its data kept',
    };
  if (e.abortReason === 'shutdown')
    return {
      status: 'aborted_system',
      errorCode: 'worker_shutdown',
      errorMessage: 'the leading worker was shut down during the run; data of every segment kept',
    };
  const failed = e.segments.find((s) => s.status === 'failed');
  if (failed) {
    return {
      status: 'aborted_system',
      errorCode: 'segment_failed',
      errorMessage:
        `segment ${failed.index} (worker ${failed.workerId ?? 'unknown'}) failed: ${failed.errorMessage ?? 'unknown error'}; the other load generators were stopped; data of every segment kept`.slice(
          0,
          2000,
        ),
    };
  }
  if (e.own.result.endReason === 'timed_out') {
    return {
      status: 'timed_out',
      errorCode: 'timed_out',
      errorMessage: `the run exceeded its wall-clock limit of ${Math.round(e.timeoutMs / 1000)} s; partial data kept`,
    };
  }
  const notDone = e.segments.find((s) => s.status !== 'succeeded');
  if (notDone) {
    return {
      status: 'aborted_system',
      errorCode: 'segment_failed',
      errorMessage:
        `segment ${notDone.index} (worker ${notDone.workerId ?? 'unknown'}) ended ${notDone.status}: ${notDone.errorMessage ?? ''}`.slice(
          0,
          2000,
        ),
    };
  }
  return completedOutcome(e.thresholds ?? []);
}
