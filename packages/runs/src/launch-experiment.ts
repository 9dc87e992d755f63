import {
  createId,
  InvalidInputError,
  NotFoundError,
  parseExperiment,
  parseTarget,
  runOrder,
  type Db,
} from '@poolbench/db';
import { poolConfigProblemsOnTarget, type Hypothesis } from '@poolbench/scenarios';
import { DEFAULT_RUN_ORDER, type RunOrderName } from '@poolbench/contracts';
import { runMetric } from '@poolbench/stats';
import { createHypotheses, hypothesesOf } from './hypotheses/create-hypotheses';
import { createRuns, type RunCell } from './create-runs';
import { launchAdvisor } from './advisor/launch-advisor';
import { liveTarget } from './live-target';
import { targetSnapshot } from './target-snapshot';
import { originColumns, type ExperimentOrigin, type LaunchedExperiment } from './launch-types';

export type { CiOrigin, LaunchedExperiment } from './launch-types';

export { targetSnapshot } from './target-snapshot';

export interface LaunchExperimentInput extends ExperimentOrigin {
  teamId: string;
  targetId: string;
  poolConfigIds: string[];
  scenarioIds: string[];
  repeats: number;
  /** default counterbalanced (`runOrder` in @poolbench/db), stored on the experiment */
  order?: RunOrderName;
  name: string;
  description?: string | null;
  presetId?: string | null;
  /** Pre-registered claims about the experiment's cells (docs/hypotheses.md), fixed once a run starts. */
  hypotheses?: Hypothesis[];
  /** load generators each run is split across (1-16, default 1); snapshotted into every run */
  loadGenerators?: number;
  /**
   * Refuse more load generators per run than workers online now. Set by people and CI launching
   * (the UI, REST, the CLI), who can act on the answer; a schedule firing or a harness that
   * starts its workers after the launch leaves it unset, and its runs wait for generators.
   */
  requireOnlineGenerators?: boolean;
  /**
   * "Until decided, at most maxRepeats per side" (continueSequential): with hypotheses, after each
   * round the sequential rule decides each hypothesis or the experiment grows by a round; without,
   * two pool configs and one scenario, the second config decided against the first on `metrics`
   * (default p95Ms, rps, errorRate).
   */
  untilDecided?: { maxRepeats: number; metrics?: string[] } | null;
  /**
   * An A/A calibration (launchCalibration): one pool config and one scenario, an even number of
   * repeats, taken as pairs of sides A and B (`calibrationSides`).
   */
  noiseCalibration?: boolean;
}

export const MAX_LOAD_GENERATORS = 16;

/**
 * Creates an experiment and all its runs (status queued, with immutable snapshots) in one
 * transaction. Every id must belong to the team (and configs to the target): anything else is
 * reported as not found, so ids of other teams reveal nothing.
 */
export async function launchExperiment(
  db: Db,
  input: LaunchExperimentInput,
): Promise<LaunchedExperiment> {
  if (input.poolConfigIds.length === 0)
    throw new InvalidInputError('poolConfigIds', 'choose at least one pool config');
  if (input.scenarioIds.length === 0)
    throw new InvalidInputError('scenarioIds', 'choose at least one scenario');
  if (!Number.isInteger(input.repeats) || input.repeats < 1 || input.repeats > 50)
    throw new InvalidInputError('repeats', 'must be an integer from 1 to 50');
  const loadGenerators = input.loadGenerators ?? 1;
  if (
    !Number.isInteger(loadGenerators) ||
    loadGenerators < 1 ||
    loadGenerators > MAX_LOAD_GENERATORS
  ) {
    throw new InvalidInputError(
      'loadGenerators',
      `must be an integer from 1 to ${MAX_LOAD_GENERATORS}`,
    );
  }
  const until = input.untilDecided ?? null;
  if (until) {
    const claims = input.hypotheses?.length ?? 0;
    if (claims === 0 && (input.poolConfigIds.length !== 2 || input.scenarioIds.length !== 1))
      throw new InvalidInputError(
        'untilDecided',
        'needs hypotheses to decide, or exactly two pool configs (the second is decided against the first) and one scenario',
      );
    if (claims > 0 && until.metrics?.length)
      throw new InvalidInputError(
        'untilDecided.metrics',
        'the hypotheses say what is decided: leave metrics out when the experiment has hypotheses',
      );
    if (
      !Number.isInteger(until.maxRepeats) ||
      until.maxRepeats < input.repeats ||
      until.maxRepeats > 50
    )
      throw new InvalidInputError(
        'untilDecided.maxRepeats',
        `must be a whole number from the repeats (${input.repeats}) to 50`,
      );
    const unknown = (until.metrics ?? []).filter((m) => !runMetric(m));
    if (unknown.length)
      throw new InvalidInputError('untilDecided.metrics', `unknown metric ${unknown.join(', ')}`);
  }
  if (input.noiseCalibration) {
    if (input.poolConfigIds.length !== 1 || input.scenarioIds.length !== 1)
      throw new InvalidInputError(
        'poolConfigIds',
        'an A/A calibration runs exactly one pool config on one scenario against itself',
      );
    if (input.repeats % 2 !== 0 || until)
      throw new InvalidInputError(
        'repeats',
        'an A/A calibration has an even number of repeats (two sides), and no sequential rule',
      );
  }
  if (new Set(input.poolConfigIds).size !== input.poolConfigIds.length)
    throw new InvalidInputError('poolConfigIds', 'contains duplicates');
  if (new Set(input.scenarioIds).size !== input.scenarioIds.length)
    throw new InvalidInputError('scenarioIds', 'contains duplicates');

  return db.$transaction(async (tx) => {
    const target = await liveTarget(tx, input.teamId, input.targetId);
    const configs = await tx.poolConfig.findMany({
      where: {
        id: { in: input.poolConfigIds },
        teamId: input.teamId,
        targetId: target.id,
        archivedAt: null,
      },
    });
    const scenarios = await tx.scenario.findMany({
      where: { id: { in: input.scenarioIds }, teamId: input.teamId, archivedAt: null },
    });
    const byId = <T extends { id: string }>(rows: T[], ids: string[], what: string) =>
      ids.map(
        (id) =>
          rows.find((r) => r.id === id) ??
          (() => {
            throw new NotFoundError(`${what} ${id}`);
          })(),
      );
    const orderedConfigs = byId(configs, input.poolConfigIds, 'pool config');
    const orderedScenarios = byId(scenarios, input.scenarioIds, 'scenario');
    if (target.kind === 'managed') {
      // A config the target's runtime cannot honour fails here, by name, not as a run later.
      const environment = parseTarget(target).managed?.environment;
      for (const c of orderedConfigs) {
        const problems = poolConfigProblemsOnTarget(
          {
            strategy: c.strategy,
            params: c.params,
            instanceCount: c.instanceCount,
            ...(c.environment ? { environment: c.environment } : {}),
          },
          environment,
        );
        if (problems.length > 0)
          throw new InvalidInputError(
            'poolConfigIds',
            `pool config "${c.name}": ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
          );
      }
    }

    const experimentId = createId();
    await tx.experiment.create({
      data: {
        id: experimentId,
        teamId: input.teamId,
        targetId: target.id,
        name: input.name,
        description: input.description ?? null,
        repeats: input.repeats,
        order: input.order ?? DEFAULT_RUN_ORDER,
        ...originColumns(input),
        presetId: input.presetId ?? null,
        loadGenerators,
        untilDecidedMaxRepeats: until?.maxRepeats ?? null,
        sequentialMetrics: until?.metrics ?? [],
        noiseCalibration: input.noiseCalibration ?? false,
        poolConfigs: {
          create: orderedConfigs.map((c, position) => ({ poolConfigId: c.id, position })),
        },
        scenarios: {
          create: orderedScenarios.map((s, position) => ({ scenarioId: s.id, position })),
        },
      },
    });
    await createHypotheses(tx, experimentId, input.hypotheses, orderedConfigs, orderedScenarios);
    const tSnap = targetSnapshot(target);
    const cells = runOrder(
      orderedConfigs.length,
      orderedScenarios.length,
      input.repeats,
      input.order ?? DEFAULT_RUN_ORDER,
    ).map((cell): RunCell => {
      const c = orderedConfigs[cell.poolConfigIndex]!;
      const s = orderedScenarios[cell.scenarioIndex]!;
      return {
        targetId: target.id,
        poolConfigId: c.id,
        scenarioId: s.id,
        repeatIndex: cell.repeatIndex,
        poolConfigSnapshot: {
          id: c.id,
          name: c.name,
          strategy: c.strategy,
          params: c.params,
          instanceCount: c.instanceCount,
          environment: c.environment ?? undefined,
        },
        scenarioSnapshot: {
          id: s.id,
          name: s.name,
          templateId: s.templateId,
          params: s.params,
          thresholds: s.thresholds,
        },
        targetSnapshot: tSnap,
        loadGenerators,
      };
    });
    const { runIds, backlog } = await createRuns(tx, cells, {
      kind: 'launch',
      teamId: input.teamId,
      experimentId,
      // an "until decided" experiment may grow to its budget
      mayGrowTo: until
        ? orderedConfigs.length * orderedScenarios.length * until.maxRepeats
        : undefined,
      requireOnlineGenerators: input.requireOnlineGenerators ?? false,
    });
    return { experimentId, runIds, backlog };
  });
}

/**
 * Starts a new experiment with the same definition as a saved one (rerun, schedule, API by id);
 * `name` and `repeats` may differ from the source's.
 */
export async function relaunchExperiment(
  db: Db,
  sourceId: string,
  /** `ci` is the new experiment's own CI origin, never copied from the saved one it repeats */
  opts: Omit<ExperimentOrigin, 'sourceId'> & {
    teamId: string;
    name?: string;
    repeats?: number;
    loadGenerators?: number;
    hypotheses?: Hypothesis[];
    requireOnlineGenerators?: boolean;
  },
): Promise<LaunchedExperiment> {
  const src = await db.experiment.findFirst({
    where: { id: sourceId, teamId: opts.teamId },
    include: {
      poolConfigs: { orderBy: { position: 'asc' } },
      scenarios: { orderBy: { position: 'asc' } },
      hypotheses: { orderBy: { position: 'asc' } },
    },
  });
  if (!src) throw new NotFoundError('experiment');
  const advisor = parseExperiment(src).advisor;
  if (advisor) {
    // an advisor is started again as an advisor: the same search, from its first step
    return launchAdvisor(db, {
      teamId: src.teamId,
      targetId: src.targetId,
      scenarioId: advisor.scenarioId,
      basePoolConfigId: advisor.basePoolConfigId,
      knob: advisor.knob,
      min: advisor.min,
      max: advisor.max,
      objective:
        advisor.objective.kind === 'slo'
          ? {
              kind: 'slo',
              p99Ms: advisor.objective.p99Ms,
              errorRate: advisor.objective.errorRate,
            }
          : { kind: 'max-throughput' },
      budgetRuns: advisor.budgetRuns,
      repeatsPerSetting: advisor.repeatsPerSetting,
      name: opts.name ?? src.name,
      createdById: opts.createdById ?? null,
      scheduleId: opts.scheduleId ?? null,
      sourceId: src.id,
      ci: opts.ci,
      requireOnlineGenerators: opts.requireOnlineGenerators,
    });
  }
  return launchExperiment(db, {
    teamId: src.teamId,
    targetId: src.targetId,
    poolConfigIds: src.poolConfigs.map((p) => p.poolConfigId),
    scenarioIds: src.scenarios.map((s) => s.scenarioId),
    repeats: opts.repeats ?? src.repeats,
    order: src.order,
    name: opts.name ?? src.name,
    description: src.description,
    createdById: opts.createdById ?? null,
    scheduleId: opts.scheduleId ?? null,
    sourceId: src.id,
    presetId: src.presetId,
    // a copy tests the same claims unless the caller states its own
    hypotheses: opts.hypotheses ?? hypothesesOf(src.hypotheses),
    loadGenerators: opts.loadGenerators ?? src.loadGenerators,
    untilDecided: src.untilDecidedMaxRepeats
      ? { maxRepeats: src.untilDecidedMaxRepeats, metrics: src.sequentialMetrics }
      : null,
    // a calibration run again is a new calibration (a new floor when it ends)
    noiseCalibration: src.noiseCalibration,
    ci: opts.ci,
    requireOnlineGenerators: opts.requireOnlineGenerators,
  });
}
