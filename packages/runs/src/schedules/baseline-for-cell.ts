/** What a stored baseline says about whose it is (a `Baseline` row with its run's config). */
export interface BaselineOwner {
  scenarioId: string;
  runId: string | null;
  poolConfigId: string | null;
  run?: { poolConfigId: string | null } | null;
}

/**
 * The baseline a cell (pool config x scenario) of a schedule firing is compared with, among the
 * baselines of the schedule's name for its target: the one saved from this cell's own pool config.
 * A baseline of another config of the same scenario is no baseline for this cell; one that names no
 * config at all (an experiment-wide reference) serves every config. Schedules, their Notify dialog
 * and Trends read baselines by this one rule.
 */
export function baselineForCell<B extends BaselineOwner>(
  baselines: readonly B[],
  cell: { scenarioId: string; poolConfigId: string },
): B | undefined {
  return baselines.find((b) => {
    if (b.scenarioId !== cell.scenarioId) return false;
    const owner = b.poolConfigId ?? b.run?.poolConfigId ?? null;
    return owner === cell.poolConfigId || (owner === null && b.runId === null);
  });
}
