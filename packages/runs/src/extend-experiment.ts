import {
  InvalidInputError,
  NotFoundError,
  parseExperiment,
  parseRun,
  runOrder,
  type Db,
} from '@poolbench/db';
import type { Queue } from 'bullmq';
import { lockExperiment, refreshExperimentStatus } from './experiment-status';
import { enqueueOrDefer, type QueuedLaunch } from './launch-and-enqueue';
import { createRuns, type RunCell } from './create-runs';

/** The most repeats an experiment may have, extensions included. */
export const MAX_REPEATS = 50;

/**
 * Adds `addRepeats` repeats of every cell to a finished experiment, instead of starting over when
 * its answer was inconclusive. The new runs copy the snapshots of the cell's earlier runs (the
 * same pool config and scenario as measured, even if they were edited since), continue the
 * experiment's order after the last run as if it had been launched with them all (a
 * counterbalanced experiment's next round carries on turning the order, it does not start over),
 * and are enqueued like a launch. The experiment goes back to `running`, and its hypotheses to
 * pending; they are decided again, over all repeats, when the last new run ends. Hypotheses stay
 * as registered: new data, same claims.
 */
export async function extendExperiment(
  /** queue null: the runs are saved queued and the lifecycle sweeper enqueues them */
  deps: { db: Db; queue: Queue | null },
  input: {
    teamId: string;
    experimentId: string;
    addRepeats: number;
    /** as for a launch: refuse more load generators than workers online */
    requireOnlineGenerators?: boolean;
  },
): Promise<QueuedLaunch> {
  const { db } = deps;
  if (!Number.isInteger(input.addRepeats) || input.addRepeats < 1)
    throw new InvalidInputError('addRepeats', 'must be a whole number of at least 1');
  const launched = await db.$transaction(async (tx) => {
    const exp = await tx.experiment.findFirst({
      where: { id: input.experimentId, teamId: input.teamId },
      select: {
        id: true,
        repeats: true,
        order: true,
        finishedAt: true,
        advisor: true,
        untilDecidedMaxRepeats: true,
        sequentialState: true,
      },
    });
    if (!exp) throw new NotFoundError('experiment');
    if (exp.advisor !== null)
      throw new InvalidInputError(
        'addRepeats',
        'an advisor plans its own runs; start it again with a larger budget instead',
      );
    // "Until decided" spends its alpha over the looks up to its budget; a look after its stop, or
    // past the budget, would spend alpha that is no longer there (A/A false decisions 4.4 % →
    // 7.1 % at 15 → 25 pairs). Its own continuation stays within the budget and before a stop.
    if (exp.untilDecidedMaxRepeats !== null) {
      const seq = parseExperiment({ sequentialState: exp.sequentialState }).sequentialState;
      // (a stop because the team's policy or limits refused a round is not a decision: more
      // runs carry the same looks on)
      if (seq?.stop && !seq.stoppedBecause)
        throw new InvalidInputError(
          'addRepeats',
          `this experiment ran until decided and its sequential rule stopped at ${seq.pairs} pairs: more runs would look again with alpha it has spent. Start a new experiment to measure again`,
        );
      if (exp.repeats + input.addRepeats > exp.untilDecidedMaxRepeats)
        throw new InvalidInputError(
          'addRepeats',
          `this experiment runs until decided with at most ${exp.untilDecidedMaxRepeats} repeats per side, its alpha spent over those looks: more would spend what is not there. Start a new experiment to measure again`,
        );
    }
    await lockExperiment(tx, exp.id);
    const active = await tx.run.count({
      where: { experimentId: exp.id, status: { in: ['queued', 'preparing', 'running'] } },
    });
    if (active > 0)
      throw new InvalidInputError(
        'addRepeats',
        'the experiment still has runs to go; add repeats once it has finished',
      );
    if (exp.repeats + input.addRepeats > MAX_REPEATS)
      throw new InvalidInputError(
        'addRepeats',
        `must be at most ${MAX_REPEATS - exp.repeats}: an experiment has at most ${MAX_REPEATS} repeats`,
      );
    const runs = (
      await tx.run.findMany({
        where: { experimentId: exp.id },
        select: {
          poolConfigId: true,
          scenarioId: true,
          targetId: true,
          poolConfigSnapshot: true,
          scenarioSnapshot: true,
          targetSnapshot: true,
          repeatIndex: true,
          loadGenerators: true,
        },
        orderBy: { sequence: 'asc' },
      })
    ).map(parseRun);
    // Cells in the experiment's own order (first appearance: round 0 runs the configs in the
    // launch's order, whatever the experiment's order), each with the snapshot it ran with.
    const configs = [...new Set(runs.map((r) => r.poolConfigId))];
    const scenarios = [...new Set(runs.map((r) => r.scenarioId))];
    const template = (c: string | null, s: string | null) =>
      runs.find((r) => r.poolConfigId === c && r.scenarioId === s);
    const firstRepeat = Math.max(-1, ...runs.map((r) => r.repeatIndex)) + 1;
    const cells: RunCell[] = [];
    for (const cell of runOrder(
      configs.length,
      scenarios.length,
      input.addRepeats,
      exp.order,
      firstRepeat,
    )) {
      const t = template(configs[cell.poolConfigIndex]!, scenarios[cell.scenarioIndex]!);
      if (!t) continue;
      cells.push({
        targetId: t.targetId,
        poolConfigId: t.poolConfigId,
        scenarioId: t.scenarioId,
        repeatIndex: cell.repeatIndex,
        poolConfigSnapshot: t.poolConfigSnapshot,
        scenarioSnapshot: t.scenarioSnapshot,
        targetSnapshot: t.targetSnapshot,
        loadGenerators: t.loadGenerators,
      });
    }
    if (cells.length === 0)
      throw new InvalidInputError('addRepeats', 'the experiment has no runs to repeat');
    // an extension is held to the same limits as a launch, counting the runs it already has
    const { runIds, backlog } = await createRuns(tx, cells, {
      kind: 'extend',
      teamId: input.teamId,
      experimentId: exp.id,
      // an "until decided" experiment may still grow to its budget
      mayGrowTo:
        exp.untilDecidedMaxRepeats !== null
          ? configs.length * scenarios.length * exp.untilDecidedMaxRepeats
          : undefined,
      requireOnlineGenerators: input.requireOnlineGenerators ?? false,
    });
    await tx.experiment.update({
      where: { id: exp.id },
      data: { repeats: exp.repeats + input.addRepeats },
    });
    await tx.hypothesis.updateMany({
      where: { experimentId: exp.id },
      data: { status: 'pending' },
    });
    await refreshExperimentStatus(tx, exp.id);
    return { experimentId: exp.id, runIds, backlog };
  });
  if (!deps.queue) return { ...launched, enqueued: false };
  return enqueueOrDefer(deps.queue, launched);
}
