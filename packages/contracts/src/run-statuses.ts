import { z } from 'zod';

const ACTIVE = ['preparing', 'running'] as const;
const TERMINAL = [
  'succeeded',
  'thresholds_failed',
  'failed',
  'canceled',
  'timed_out',
  'aborted_system',
] as const;

/**
 * A run's lifecycle, identical to the RunStatus enum in the database: the one list of its
 * statuses, which the transitions table (packages/runs `RUN_TRANSITIONS`) is built from. A run is
 * queued, then active (a worker holds it), then terminal.
 */
export const RUN_STATUSES = ['queued', ...ACTIVE, ...TERMINAL] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;
/** Statuses in which a worker holds the run (heartbeats, cancel requests). */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ACTIVE;
/** Statuses nothing leaves: the run ended. */
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = TERMINAL;
export type ActiveRunStatus = (typeof ACTIVE)[number];
export type TerminalRunStatus = (typeof TERMINAL)[number];
/**
 * Runs whose load ran to its end, so their numbers are valid measurements. A run whose thresholds
 * failed is a failure to the user (k6's exit code 99) but measured the system as well as a
 * succeeded one did: statistics, comparisons and pivots count both.
 */
export const MEASURED_RUN_STATUSES = [
  'succeeded',
  'thresholds_failed',
] as const satisfies readonly RunStatus[];
export const isMeasuredRunStatus = (s: string): boolean =>
  (MEASURED_RUN_STATUSES as readonly string[]).includes(s);
/**
 * Runs that ended without a valid measurement through no choice of the user (crashed, timed out,
 * aborted by the system). A check against a baseline counts them: when too many of a cell's runs
 * crashed, the survivors do not stand for the config (`incompleteReason` in @poolbench/stats).
 * A canceled run is the user's choice and is not counted.
 */
export const CRASHED_RUN_STATUSES = [
  'failed',
  'timed_out',
  'aborted_system',
] as const satisfies readonly RunStatus[];
export const isCrashedRunStatus = (s: string): boolean =>
  (CRASHED_RUN_STATUSES as readonly string[]).includes(s);
