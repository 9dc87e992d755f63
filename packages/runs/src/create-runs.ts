import { createId, InvalidInputError, toJson, type Prisma } from '@poolbench/db';
import { SCRIPT_TEMPLATE } from '@poolbench/scenarios';
import { checkFleetLimits, plannedLoadMs } from './fleet-limits';
import { assertScriptScenariosAllowed } from './script-policy';

/** One run to create: its cell, its repeat and what it runs with (stored as its snapshots). */
export interface RunCell {
  targetId: string;
  poolConfigId: string | null;
  scenarioId: string | null;
  repeatIndex: number;
  poolConfigSnapshot: unknown;
  /** the scenario as it runs: its template and params give the run's planned load */
  scenarioSnapshot: {
    name?: string;
    templateId?: string | null;
    params?: unknown;
    [column: string]: unknown;
  };
  targetSnapshot: unknown;
  loadGenerators: number;
}

/** What asks for the runs: its refusals name the field its caller filled in. */
export type RunOriginKind = 'launch' | 'advisor-start' | 'advisor-step' | 'extend';

export interface RunOrigin {
  kind: RunOriginKind;
  teamId: string;
  experimentId: string;
  /**
   * The runs the experiment may grow to on its own (an "until decided" budget, an advisor's
   * budget): the team's per-experiment limit holds against it when it is more than the runs the
   * experiment has after these.
   */
  mayGrowTo?: number;
  /** refuse more load generators per run than workers online (people and CI asking) */
  requireOnlineGenerators?: boolean;
}

const REFUSAL_FIELDS: Record<RunOriginKind, { limits: string; scripts: string }> = {
  launch: { limits: 'repeats', scripts: 'scenarioIds' },
  'advisor-start': { limits: 'budgetRuns', scripts: 'scenarioId' },
  'advisor-step': { limits: 'budgetRuns', scripts: 'scenarioId' },
  extend: { limits: 'addRepeats', scripts: 'addRepeats' },
};

export interface CreatedRuns {
  /** in execution order (the order of `cells`); enqueue them in this order */
  runIds: string[];
  /** the team's runs queued before these: `enqueueRuns`' backlog */
  backlog: number;
}

/**
 * The one place Run rows are made. Appends `cells` (in execution order) to the experiment's runs,
 * queued, after refusing by field what the team may not ask for: a team's own k6 script when its
 * admins turned scripts off, a script on more than one load generator, and the fleet limits
 * (runs per experiment, counting the runs it has and the runs it may grow to; planned load, a
 * script's stop time included, times load generators; workers online when asked). Runs in the
 * caller's transaction, so a refusal leaves nothing behind.
 */
export async function createRuns(
  tx: Prisma.TransactionClient,
  cells: readonly RunCell[],
  origin: RunOrigin,
): Promise<CreatedRuns> {
  const fields = REFUSAL_FIELDS[origin.kind];
  const script = cells.find((c) => c.scenarioSnapshot.templateId === SCRIPT_TEMPLATE);
  if (script) {
    await assertScriptScenariosAllowed(tx, origin.teamId, fields.scripts);
    if (
      cells.some((c) => c.scenarioSnapshot.templateId === SCRIPT_TEMPLATE && c.loadGenerators > 1)
    )
      throw new InvalidInputError(
        'loadGenerators',
        `scenario "${script.scenarioSnapshot.name ?? script.scenarioId ?? ''}" is a k6 script, which runs on one load generator: launch it with 1`,
      );
  }
  const existing = await tx.run.aggregate({
    where: { experimentId: origin.experimentId },
    _count: true,
    _max: { sequence: true },
  });
  const rows = cells.map((c, i) => ({
    id: createId(),
    teamId: origin.teamId,
    experimentId: origin.experimentId,
    targetId: c.targetId,
    poolConfigId: c.poolConfigId,
    scenarioId: c.scenarioId,
    repeatIndex: c.repeatIndex,
    sequence: (existing._max.sequence ?? -1) + 1 + i,
    poolConfigSnapshot: toJson.poolConfigSnapshot(c.poolConfigSnapshot),
    scenarioSnapshot: toJson.scenarioSnapshot(c.scenarioSnapshot),
    targetSnapshot: toJson.targetSnapshot(c.targetSnapshot),
    loadGenerators: c.loadGenerators,
    plannedLoadMs: plannedLoadMs({
      templateId: c.scenarioSnapshot.templateId ?? undefined,
      params: c.scenarioSnapshot.params,
    }),
  }));
  await checkFleetLimits(tx, {
    teamId: origin.teamId,
    experimentRuns: Math.max(existing._count + rows.length, origin.mayGrowTo ?? 0),
    newLoadMs: rows.reduce((a, r) => a + r.plannedLoadMs * r.loadGenerators, 0),
    loadGenerators: Math.max(1, ...rows.map((r) => r.loadGenerators)),
    requireOnlineGenerators: origin.requireOnlineGenerators ?? false,
    field: fields.limits,
  });
  const backlog = await tx.run.count({ where: { teamId: origin.teamId, status: 'queued' } });
  await tx.run.createMany({ data: rows });
  return { runIds: rows.map((r) => r.id), backlog };
}
