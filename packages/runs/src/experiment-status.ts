import type { ExperimentStatus, RunStatus, Tx } from '@poolbench/db';

/**
 * An experiment's status follows from its runs' statuses alone: queued until one starts, running
 * while any is active, then canceled (all canceled), completed (at least one run measured: succeeded
 * or thresholds_failed, whose data is valid and comparable) or failed. Threshold failures stay visible
 * on the experiment through its runs' counts (list, REST byStatus, CLI exit code).
 */
export function experimentStatusFromCounts(counts: Partial<Record<RunStatus, number>>): {
  status: ExperimentStatus;
  finished: boolean;
} {
  const n = (s: RunStatus) => counts[s] ?? 0;
  const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
  const active = n('queued') + n('preparing') + n('running');
  if (active > 0)
    return { status: total - n('queued') > 0 ? 'running' : 'queued', finished: false };
  if (total > 0 && n('canceled') === total) return { status: 'canceled', finished: true };
  return {
    status: n('succeeded') + n('thresholds_failed') > 0 ? 'completed' : 'failed',
    finished: true,
  };
}

/**
 * Takes the experiment's row lock. Every transaction that changes a run of the experiment takes it
 * first, so two runs ending at the same moment are serialised and the second refresh sees the first
 * run's new status (under READ COMMITTED, without the lock both could count the other as active
 * and leave the experiment `running` for good).
 */
export async function lockExperiment(tx: Tx, experimentId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "Experiment" WHERE "id" = ${experimentId} FOR UPDATE`;
}

/** Recomputes the experiment's status from its runs; call inside the transaction that changed them. */
export async function refreshExperimentStatus(
  tx: Tx,
  experimentId: string,
): Promise<ExperimentStatus> {
  const groups = await tx.run.groupBy({ by: ['status'], where: { experimentId }, _count: true });
  const { status, finished } = experimentStatusFromCounts(
    Object.fromEntries(groups.map((g) => [g.status, g._count])),
  );
  const current = await tx.experiment.findUnique({
    where: { id: experimentId },
    select: { status: true, finishedAt: true },
  });
  if (!current) return status;
  // finishedAt is set once, when the last run ends; an experiment that grows again clears it
  const finishedAt = finished ? (current.finishedAt ?? new Date()) : null;
  if (current.status !== status || (current.finishedAt === null) !== (finishedAt === null)) {
    await tx.experiment.update({ where: { id: experimentId }, data: { status, finishedAt } });
  }
  return status;
}
