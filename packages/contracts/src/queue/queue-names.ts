/** BullMQ queue of runs to execute; jobId = runId, attempts 1 (load tests are never retried). */
export const RUN_QUEUE = 'poolbench-runs';
/** BullMQ queue of schedule ticks (repeatable jobs) that create experiments. */
export const SCHEDULE_QUEUE = 'poolbench-schedules';

/** Redis pub/sub channel carrying a run's live events (see LiveEventSchema). */
export function runEventsChannel(runId: string): string {
  return `poolbench:run:${runId}`;
}

/** Redis pub/sub channel the web app uses to ask the worker running a run to cancel it. */
export const RUN_CONTROL_CHANNEL = 'poolbench:run-control';
