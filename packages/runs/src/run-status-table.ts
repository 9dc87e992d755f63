import type { RunStatus } from '@poolbench/db';
import { ACTIVE_RUN_STATUSES, TERMINAL_RUN_STATUSES } from '@poolbench/contracts';

type Statuses = readonly RunStatus[];

const ACTIVE = ACTIVE_RUN_STATUSES;
const TERMINAL = TERMINAL_RUN_STATUSES;

/**
 * Every allowed change of a run's status, by name: the only table of them. Each transition is a
 * conditional UPDATE whose WHERE is `from` (so whoever matches first owns it), writing one of `to`.
 * Nothing leaves a terminal status.
 */
export const RUN_TRANSITIONS = {
  /** a worker takes a queued run */
  claim: { from: ['queued'], to: ['preparing'] },
  /** load starts */
  start: { from: ['preparing'], to: ['running'] },
  /** the worker that holds the run ends it */
  finish: { from: ACTIVE, to: TERMINAL },
  /** a user cancels a run no worker took yet */
  cancelQueued: { from: ['queued'], to: ['canceled'] },
  /** the sweeper ends a run whose worker stopped sending heartbeats */
  abortStale: { from: ACTIVE, to: ['aborted_system'] },
} as const satisfies Record<string, { from: Statuses; to: Statuses }>;
export type RunTransition = keyof typeof RUN_TRANSITIONS;

export { ACTIVE_RUN_STATUSES };

/** The WHERE part of a transition: the statuses it may start from. */
export function fromStatuses(t: RunTransition): { in: RunStatus[] } {
  return { in: [...RUN_TRANSITIONS[t].from] };
}

/** The status a transition writes, refused when the table does not allow it. */
export function toStatus<S extends RunStatus>(t: RunTransition, status: S): S {
  if (!(RUN_TRANSITIONS[t].to as Statuses).includes(status))
    throw new Error(`run transition ${t} cannot end in ${status}`);
  return status;
}

/** Whether any transition leads from one status to the other. */
export function canTransition(from: RunStatus, to: RunStatus): boolean {
  return Object.values(RUN_TRANSITIONS).some(
    (t) => (t.from as Statuses).includes(from) && (t.to as Statuses).includes(to),
  );
}
