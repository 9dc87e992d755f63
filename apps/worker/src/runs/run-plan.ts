import { scenarioFromColumns, type PoolConfigSnapshot, type ScenarioSnapshot } from '@poolbench/db';
import {
  isScriptScenario,
  PoolConfigSchema,
  ScenarioSchema,
  ScriptScenarioSchema,
  type PoolConfig,
  type Scenario,
  type ScriptScenario,
} from '@poolbench/scenarios';
import { RunError } from './run-error';

/** A template scenario's run (a generated script), or a team's own k6 script's. */
export type RunPlan =
  | { poolConfig: PoolConfig; kind: 'template'; scenario: Scenario }
  | { poolConfig: PoolConfig; kind: 'script'; script: ScriptScenario };

/** Wall-clock limit for k6: the scenario's length plus a margin (at least 20 % of it). */
export function k6TimeoutMs(estimatedDurationMs: number, marginMs: number): number {
  return estimatedDurationMs + Math.max(marginMs, estimatedDurationMs * 0.2);
}

const issues = (e: { issues: { path: PropertyKey[]; message: string }[] }) =>
  e.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');

/**
 * What the run will execute, from its immutable snapshots. They are validated again here: a run
 * must never execute something today's contracts reject (a snapshot written by an older version).
 */
export function planRun(run: {
  poolConfigSnapshot: PoolConfigSnapshot;
  scenarioSnapshot: ScenarioSnapshot;
}): RunPlan {
  const snap = run.poolConfigSnapshot;
  const pc = PoolConfigSchema.safeParse({
    strategy: snap.strategy,
    params: snap.params,
    instanceCount: snap.instanceCount,
    environment: snap.environment ?? undefined,
  });
  if (!pc.success)
    throw new RunError('invalid_snapshot', `pool config is invalid: ${issues(pc.error)}`);
  const columns = scenarioFromColumns(run.scenarioSnapshot);
  if (isScriptScenario(columns)) {
    const script = ScriptScenarioSchema.safeParse(columns);
    if (!script.success)
      throw new RunError(
        'invalid_snapshot',
        `k6 script scenario is invalid: ${issues(script.error)}`,
      );
    return { poolConfig: pc.data, kind: 'script', script: script.data };
  }
  const sc = ScenarioSchema.safeParse(columns);
  if (!sc.success)
    throw new RunError('invalid_snapshot', `scenario is invalid: ${issues(sc.error)}`);
  return { poolConfig: pc.data, kind: 'template', scenario: sc.data };
}

/** A plan distributed runs can execute: a generated script (a team's script runs on one generator). */
export function templatePlan(plan: RunPlan): Extract<RunPlan, { kind: 'template' }> {
  if (plan.kind !== 'template')
    throw new RunError(
      'invalid_snapshot',
      'a k6 script scenario runs on one load generator; launch it with load generators = 1',
    );
  return plan;
}
