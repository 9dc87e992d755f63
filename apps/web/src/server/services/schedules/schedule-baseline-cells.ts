import type { Db } from '@poolbench/db';
import { baselineForCell, EXPERIMENT_MATRIX_SELECT } from '@poolbench/runs';
import { NotFoundError } from '../errors';

/**
 * Per cell (pool config x scenario) of a schedule's experiment, the baseline of `baselineName` a
 * firing will be compared with, or null: what the Notify dialog lists before anything fires. It
 * reads baselines by the rule the firing's outcome uses (`baselineForCell`), so the two cannot
 * disagree.
 */
export async function scheduleBaselineCells(
  db: Db,
  teamId: string,
  scheduleId: string,
  baselineName: string,
) {
  const schedule = await db.schedule.findFirst({
    where: { id: scheduleId, teamId },
    select: {
      sourceExperiment: {
        select: {
          targetId: true,
          ...EXPERIMENT_MATRIX_SELECT,
        },
      },
    },
  });
  if (!schedule) throw new NotFoundError('schedule');
  const e = schedule.sourceExperiment;
  const baselines = baselineName
    ? await db.baseline.findMany({
        where: { teamId, targetId: e.targetId, name: baselineName },
        select: {
          id: true,
          scenarioId: true,
          runId: true,
          poolConfigId: true,
          updatedAt: true,
          poolConfig: { select: { name: true } },
          experiment: { select: { id: true, name: true } },
          run: {
            select: {
              poolConfigId: true,
              repeatIndex: true,
              experiment: { select: { id: true, name: true } },
            },
          },
        },
      })
    : [];
  return e.poolConfigs.flatMap(({ poolConfig }) =>
    e.scenarios.map(({ scenario }) => {
      const b = baselineForCell(baselines, {
        scenarioId: scenario.id,
        poolConfigId: poolConfig.id,
      });
      const experiment = b?.experiment ?? b?.run?.experiment ?? null;
      return {
        poolConfig,
        scenario,
        baseline: b
          ? {
              id: b.id,
              savedAt: b.updatedAt,
              experiment,
              /** whose runs: this config's, or an experiment-wide reference */
              from: b.run
                ? `run #${b.run.repeatIndex + 1} of ${poolConfig.name}`
                : (b.poolConfig?.name ?? 'every config'),
            }
          : null,
      };
    }),
  );
}
