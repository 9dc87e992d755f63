import { z } from 'zod';
import {
  createId,
  InvalidInputError,
  NotFoundError,
  parsePoolConfig,
  parseScenarioRow,
  parseTarget,
  toJson,
  type AdvisorSpec,
  type Db,
} from '@poolbench/db';
import {
  AdvisorRequestSchema,
  poolConfigProblemsOnTarget,
  validatePoolConfig,
  type AdvisorKnob,
} from '@poolbench/scenarios';
import { createRuns } from '../create-runs';
import { originColumns, type ExperimentOrigin, type LaunchedExperiment } from '../launch-types';
import { liveTarget } from '../live-target';
import { targetSnapshot } from '../target-snapshot';
import { advisorRunCells, settingParams, withConfigs } from './advisor-runs';
import { planAdvisorStep } from './advisor-plan';

/** where a constant-arrival-rate scenario row keeps its rate (Scenario.params holds the template's params) */
const RateParamsSchema = z.object({ params: z.object({ ratePerSec: z.number().positive() }) });

export interface LaunchAdvisorInput extends ExperimentOrigin {
  teamId: string;
  targetId: string;
  scenarioId: string;
  /** the config whose knob is searched; everything else of it stays as it is */
  basePoolConfigId: string;
  knob?: AdvisorKnob;
  min: number;
  max: number;
  /** p99 and error-rate limits at the scenario's arrival rate, or the highest throughput */
  objective: { kind: 'slo'; p99Ms: number; errorRate: number } | { kind: 'max-throughput' };
  budgetRuns: number;
  repeatsPerSetting?: number;
  name?: string;
  requireOnlineGenerators?: boolean;
}

/**
 * Starts a pool-size advisor (docs/advisor.md): an experiment whose runs the advisor's search
 * plans. The first step (a coarse pass over the range) is queued now; after each step's last run
 * `continueAdvisor` decides or plans the next, until the answer is decided or the budget is spent.
 * Refuses by field what cannot be searched: an SLO needs a constant-arrival-rate scenario (its rate
 * is the rate the SLO holds at), every setting's config must be valid on the target.
 */
export async function launchAdvisor(
  db: Db,
  input: LaunchAdvisorInput,
): Promise<LaunchedExperiment> {
  // the advisor's rules are stated once (@poolbench/scenarios); a broken one is named by its field
  const checked = AdvisorRequestSchema.safeParse(input);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new InvalidInputError(issue.path.join('.'), issue.message);
  }
  const { knob, repeatsPerSetting: repeats } = checked.data;

  return db.$transaction(async (tx) => {
    const target = await liveTarget(tx, input.teamId, input.targetId);
    const baseRow = await tx.poolConfig.findFirst({
      where: {
        id: input.basePoolConfigId,
        teamId: input.teamId,
        targetId: target.id,
        archivedAt: null,
      },
    });
    if (!baseRow) throw new NotFoundError('pool config');
    const base = parsePoolConfig(baseRow);
    const scenarioRow = await tx.scenario.findFirst({
      where: { id: input.scenarioId, teamId: input.teamId, archivedAt: null },
    });
    if (!scenarioRow) throw new NotFoundError('scenario');
    const scenario = parseScenarioRow(scenarioRow);
    let objective: AdvisorSpec['objective'];
    if (input.objective.kind === 'slo') {
      const rate = RateParamsSchema.safeParse(scenario.params).data?.params.ratePerSec;
      if (scenario.templateId !== 'constant-arrival-rate' || rate === undefined)
        throw new InvalidInputError(
          'scenarioId',
          `an SLO holds at a request rate: choose a constant-arrival-rate scenario ("${scenario.name}" is ${scenario.templateId}), or search for the highest throughput`,
        );
      objective = { ...input.objective, rate };
    } else {
      objective = { kind: 'max-throughput' };
    }
    const spec: AdvisorSpec = {
      knob,
      basePoolConfigId: base.id,
      basePoolConfigName: base.name,
      base: {
        strategy: base.strategy,
        params: base.params,
        instanceCount: base.instanceCount,
        environment: base.environment ?? null,
      },
      scenarioId: scenario.id,
      min: input.min,
      max: input.max,
      objective,
      budgetRuns: input.budgetRuns,
      repeatsPerSetting: repeats,
    };
    // every setting of the range must be a valid config the target's runtime honours
    const environment = target.kind === 'managed' ? parseTarget(target).managed?.environment : null;
    for (const setting of [input.min, input.max]) {
      const cfg = {
        strategy: base.strategy,
        params: settingParams(spec, setting),
        instanceCount: base.instanceCount,
        ...(base.environment ? { environment: base.environment } : {}),
      };
      // poolConfigProblemsOnTarget validates the config itself first
      const problems =
        environment !== null
          ? poolConfigProblemsOnTarget(cfg, environment)
          : validatePoolConfig(cfg);
      if (problems.length > 0)
        throw new InvalidInputError(
          setting === input.min ? 'min' : 'max',
          `pool config "${base.name}" with ${knob} ${setting}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
        );
    }
    const first = planAdvisorStep(spec, []);
    if (first.next.length === 0)
      throw new InvalidInputError('budgetRuns', 'leaves the search no run to make');

    const experimentId = createId();
    await tx.experiment.create({
      data: {
        id: experimentId,
        teamId: input.teamId,
        targetId: target.id,
        name: input.name ?? `Advisor: ${knob} for ${base.name} on ${scenario.name}`,
        description: null,
        repeats,
        order: 'counterbalanced',
        ...originColumns(input),
        loadGenerators: 1,
        advisor: toJson.advisorSpec(spec),
        scenarios: { create: [{ scenarioId: scenario.id, position: 0 }] },
      },
    });
    const configs = new Map<number, string>();
    const cells = await advisorRunCells(
      tx,
      {
        teamId: input.teamId,
        experimentId,
        targetId: target.id,
        spec,
        scenario: {
          id: scenario.id,
          snapshot: {
            id: scenario.id,
            name: scenario.name,
            templateId: scenario.templateId,
            params: scenario.params,
            thresholds: scenario.thresholds,
          },
        },
        targetSnapshot: targetSnapshot(target),
        loadGenerators: 1,
        order: 'counterbalanced',
        existing: [],
        configs,
      },
      first.next,
    );
    const { runIds, backlog } = await createRuns(tx, cells, {
      kind: 'advisor-start',
      teamId: input.teamId,
      experimentId,
      // the advisor may spend its whole budget
      mayGrowTo: input.budgetRuns,
      requireOnlineGenerators: input.requireOnlineGenerators ?? false,
    });
    await tx.experiment.update({
      where: { id: experimentId },
      data: { advisorState: toJson.advisorState(withConfigs(first.state, configs)) },
    });
    return { experimentId, runIds, backlog };
  });
}
