import { scenarioFromColumns, type PoolConfigSnapshot, type ScenarioSnapshot } from '@poolbench/db';
import {
  PoolConfigSchema,
  ScenarioSchema,
  type PoolConfig,
  type Scenario,
} from '@poolbench/scenarios';
import { RunError } from './run-error';

export interface RunPlan {
  poolConfig: PoolConfig;
  scenario: Scenario;
}

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
  const sc = ScenarioSchema.safeParse(scenarioFromColumns(run.scenarioSnapshot));
  if (!sc.success)
    throw new RunError('invalid_snapshot', `scenario is invalid: ${issues(sc.error)}`);
  return { poolConfig: pc.data, scenario: sc.data };
}
