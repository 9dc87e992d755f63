/** What the experiment page polls on: its progress, what may grow it, and what is decided after. */
export interface ExperimentPollState {
  runs: unknown[];
  progress: { done: number; total: number };
  advisor: { state: { status: string } | null } | null;
  sequential: { state: { stop?: boolean } | null } | null;
  hypotheses: { items: Array<{ status: string }> };
}

/** How often the experiment page asks again, in ms; false once nothing on it can change by itself. */
export const EXPERIMENT_POLL_MS = 2000;

/**
 * The page asks again while runs are to go, while an advisor's search or an "until decided" rule
 * may still grow the experiment, and while a hypothesis is pending after the last run ended: it is
 * decided after the transaction that ended that run (`afterRunEnded`, or the lifecycle sweeper
 * when that process died), so the answer that shows every run done can come before the decision.
 */
export function experimentPollMs(d: ExperimentPollState | undefined): number | false {
  if (!d) return false;
  if (d.progress.done < d.progress.total) return EXPERIMENT_POLL_MS;
  if (d.runs.length === 0) return false;
  const growing =
    (d.advisor !== null && d.advisor.state?.status === 'running') ||
    (d.sequential !== null && d.sequential.state?.stop !== true);
  const undecided = d.hypotheses.items.some((h) => h.status === 'pending');
  return growing || undecided ? EXPERIMENT_POLL_MS : false;
}
