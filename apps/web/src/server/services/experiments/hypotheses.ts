import { NotFoundError, type Db } from '@poolbench/db';
import { extendExperiment, replaceHypotheses } from '@poolbench/runs';
import { storedVerdict, storedWindow, type Hypothesis } from '@poolbench/scenarios';
import type { Queue } from 'bullmq';
import type { HypothesisView } from '~/server/api/routers/hypothesis.types';
import { cellPairPath } from '@poolbench/contracts/links';

/** The compare view of a hypothesis's two cells, base first (the same link the seeds page gives). */
export function hypothesisComparePath(
  experimentId: string,
  h: {
    base: { poolConfigId: string; scenarioId: string };
    candidate: { poolConfigId: string; scenarioId: string };
  },
): string {
  return cellPairPath(experimentId, h.base, h.candidate);
}

/**
 * An experiment's hypotheses with their decisions, and whether they are fixed yet: once any run
 * left `queued` (a worker took it, so data may exist) they are pre-registered and read-only.
 */
export async function readHypotheses(
  db: Db,
  experimentId: string,
): Promise<{ preRegistered: boolean; items: HypothesisView[] }> {
  const [rows, started] = await Promise.all([
    db.hypothesis.findMany({ where: { experimentId }, orderBy: { position: 'asc' } }),
    db.run.count({ where: { experimentId, preparingAt: { not: null } } }),
  ]);
  return {
    preRegistered: started > 0,
    items: rows.map((h) => {
      const base = { poolConfigId: h.basePoolConfigId, scenarioId: h.baseScenarioId };
      const candidate = {
        poolConfigId: h.candidatePoolConfigId,
        scenarioId: h.candidateScenarioId,
      };
      return {
        id: h.id,
        position: h.position,
        statement: h.statement,
        claim: h.claim,
        base,
        candidate,
        metric: h.metric as HypothesisView['metric'],
        expect: h.expect as HypothesisView['expect'],
        band: h.band,
        bandUnit: h.bandUnit as HypothesisView['bandUnit'],
        window: storedWindow(h),
        ...storedVerdict(h),
        repeatsNeeded: h.repeatsNeeded,
        runsUsed: h.runsUsed.length,
        decidedAt: h.decidedAt,
        comparePath: hypothesisComparePath(experimentId, { base, candidate }),
      };
    }),
  };
}

/** Replaces the hypotheses while every run is queued (pre-registration; see replaceHypotheses). */
export async function setHypotheses(
  db: Db,
  teamId: string,
  experimentId: string,
  hypotheses: Hypothesis[],
) {
  await replaceHypotheses(db, teamId, experimentId, hypotheses);
  return readHypotheses(db, experimentId);
}

/** Adds repeats of every cell to a finished experiment (its claims are decided again over all). */
export async function extendTeamExperiment(
  deps: { db: Db; queue: Queue },
  teamId: string,
  experimentId: string,
  addRepeats: number,
) {
  const exists = await deps.db.experiment.count({ where: { id: experimentId, teamId } });
  if (!exists) throw new NotFoundError('experiment');
  const r = await extendExperiment(deps, {
    teamId,
    experimentId,
    addRepeats,
    requireOnlineGenerators: true,
  });
  return {
    experimentId: r.experimentId,
    runIds: r.runIds,
    enqueued: r.enqueued,
    queueMessage: r.queueMessage ?? null,
  };
}
