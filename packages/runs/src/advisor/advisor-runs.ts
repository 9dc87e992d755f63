import {
  createId,
  roundOrder,
  toJson,
  type AdvisorSpec,
  type AdvisorState,
  type Prisma,
} from '@poolbench/db';
import type { RunOrderName } from '@poolbench/contracts';
import type { RunCell } from '../create-runs';

/** The pool config of one setting: the advisor's base config with the knob set to it. */
export function settingParams(spec: AdvisorSpec, setting: number): Record<string, number> {
  const params: Record<string, number> = { ...spec.base.params, [spec.knob]: setting };
  // the knob is the pool's upper bound: lower bounds the base config had follow it down
  for (const lower of ['minConns', 'initialConns'] as const) {
    const v = params[lower];
    if (v !== undefined && v > setting) params[lower] = setting;
  }
  return params;
}

export function settingName(spec: AdvisorSpec, setting: number): string {
  return `${spec.basePoolConfigName} · ${spec.knob} ${setting}`;
}

/**
 * Settings in the order their runs go to the queue: in rounds, each setting once per round while
 * it has runs to go, so a setting's runs are spread over the whole step. Counterbalanced (how an
 * advisor is launched) turns the settings' order from round to round as an experiment's configs
 * (`roundOrder`: 1 32, 32 1, …), so no setting always runs first; interleaved keeps them ascending.
 */
export function interleaveSettings(next: readonly number[], order: RunOrderName): number[] {
  const counts = new Map<number, number>();
  for (const s of next) counts.set(s, (counts.get(s) ?? 0) + 1);
  const settings = [...counts.keys()].sort((a, b) => a - b);
  const out: number[] = [];
  for (let round = 0; out.length < next.length; round++) {
    const open = settings.filter((s) => (counts.get(s) ?? 0) > round);
    const turn = order === 'counterbalanced' ? roundOrder(open.length, round) : open.keys();
    for (const i of turn) out.push(open[i]!);
  }
  return out;
}

export interface AdvisorRunContext {
  teamId: string;
  experimentId: string;
  targetId: string;
  spec: AdvisorSpec;
  scenario: { id: string; snapshot: RunCell['scenarioSnapshot'] };
  targetSnapshot: unknown;
  loadGenerators: number;
  /** the experiment's order: how the settings of a step take turns (`interleaveSettings`) */
  order: RunOrderName;
  /** the experiment's runs so far, for repeat indexes */
  existing: Array<{ poolConfigId: string | null; repeatIndex: number }>;
  /** setting -> its pool config, for the settings run before */
  configs: Map<number, string>;
}

/**
 * The runs of `next` (settings, one entry per run) as cells for `createRuns`, in queue order:
 * first a pool config per new setting (stored archived, so the team's list of configs is not
 * filled with the search's steps; "save as pool config" makes a live copy) and the experiment's
 * link to it.
 */
export async function advisorRunCells(
  tx: Prisma.TransactionClient,
  ctx: AdvisorRunContext,
  next: readonly number[],
): Promise<RunCell[]> {
  const order = interleaveSettings(next, ctx.order);
  const positions = await tx.experimentPoolConfig.count({
    where: { experimentId: ctx.experimentId },
  });
  let position = positions;
  for (const setting of new Set(order)) {
    if (ctx.configs.has(setting)) continue;
    const id = createId();
    await tx.poolConfig.create({
      data: {
        id,
        teamId: ctx.teamId,
        targetId: ctx.targetId,
        name: settingName(ctx.spec, setting),
        strategy: ctx.spec.base.strategy,
        params: toJson.poolParams(settingParams(ctx.spec, setting)),
        instanceCount: ctx.spec.base.instanceCount,
        ...(ctx.spec.base.environment
          ? { environment: toJson.poolEnvironment(ctx.spec.base.environment) }
          : {}),
        archivedAt: new Date(),
      },
    });
    await tx.experimentPoolConfig.create({
      data: { experimentId: ctx.experimentId, poolConfigId: id, position: position++ },
    });
    ctx.configs.set(setting, id);
  }
  const repeatOf = new Map<string, number>();
  for (const r of ctx.existing)
    if (r.poolConfigId)
      repeatOf.set(r.poolConfigId, Math.max(repeatOf.get(r.poolConfigId) ?? 0, r.repeatIndex + 1));
  return order.map((setting) => {
    const poolConfigId = ctx.configs.get(setting)!;
    const repeatIndex = repeatOf.get(poolConfigId) ?? 0;
    repeatOf.set(poolConfigId, repeatIndex + 1);
    return {
      targetId: ctx.targetId,
      poolConfigId,
      scenarioId: ctx.scenario.id,
      repeatIndex,
      poolConfigSnapshot: {
        id: poolConfigId,
        name: settingName(ctx.spec, setting),
        strategy: ctx.spec.base.strategy,
        params: settingParams(ctx.spec, setting),
        instanceCount: ctx.spec.base.instanceCount,
        environment: ctx.spec.base.environment ?? undefined,
      },
      scenarioSnapshot: ctx.scenario.snapshot,
      targetSnapshot: ctx.targetSnapshot,
      loadGenerators: ctx.loadGenerators,
    };
  });
}

/**
 * The state with each setting's pool config filled in, and the settings only planned so far
 * (a config, no run yet) listed as "planned".
 */
export function withConfigs(state: AdvisorState, configs: Map<number, string>): AdvisorState {
  const known = new Set(state.settings.map((s) => s.setting));
  const settings = [
    ...state.settings.map((s) => ({
      ...s,
      poolConfigId: configs.get(s.setting) ?? s.poolConfigId,
    })),
    ...[...configs.entries()]
      .filter(([s]) => !known.has(s))
      .map(([setting, poolConfigId]) => ({
        setting,
        poolConfigId,
        runs: 0,
        meets: 0,
        verdict: 'planned',
      })),
  ].sort((a, b) => a.setting - b.setting);
  return { ...state, settings };
}
