import { scenarioFromColumns, type PoolConfigSnapshot, type ScenarioSnapshot } from '@poolbench/db';
import { plannedIterations, planScenario, ScenarioSchema, TEMPLATES } from '@poolbench/scenarios';
import type { RunInsightInput } from '@poolbench/stats';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * What `runInsights` and `runValidity` read of a run's snapshots: the load model, the VU cap, the
 * iterations an arrival rate asks for, the pool.
 */
export interface SnapshotInsightInput {
  model: 'open' | 'closed' | null;
  maxVUs: number | null;
  plannedIterations: number | null;
  poolMax: number | null;
  instanceCount: number | null;
  targetCpuLimit: number | null;
}

/** The parts of a run's snapshots `runInsights` reads (the scenario parsed by its schema). */
export function insightInputOf(pc: PoolConfigSnapshot, sc: ScenarioSnapshot): SnapshotInsightInput {
  const parsed = ScenarioSchema.safeParse(scenarioFromColumns(sc));
  const t: Record<string, unknown> = parsed.success ? parsed.data.params : {};
  const template = parsed.success ? parsed.data.template : null;
  return {
    model: template ? TEMPLATES[template].model : null,
    maxVUs: num(t.maxVUs) ?? num(t.preAllocatedVUs),
    plannedIterations: parsed.success ? plannedIterations(planScenario(parsed.data)) : null,
    poolMax: num(pc.params?.maxConns),
    instanceCount: num(pc.instanceCount),
    targetCpuLimit: num(pc.environment?.cpuLimit),
  };
}

/** What of a run's environment (`RunEnvironment`, or the worker's record before it is stored) counts. */
export interface InsightEnvironment {
  cpuCount?: number;
  loadAvg1mAtStart?: number;
  cpuIsolation?: { mode: string; targetCpus?: string };
  disturbance?: { outsideCpuPercent: number };
  disturbanceBeforeStart?: { outsideCpuPercent: number };
}

/**
 * The parts of a run's environment `runInsights` reads: the machine's cores and load, the CPUs the
 * target was pinned to, and the CPU used outside the run.
 */
export function environmentInsightInput(
  env: InsightEnvironment | null | undefined,
): Pick<
  RunInsightInput,
  | 'cpuCount'
  | 'targetCpuList'
  | 'loadAvg1mAtStart'
  | 'outsideCpuPercent'
  | 'outsideCpuPercentBeforeStart'
> {
  return {
    cpuCount: num(env?.cpuCount),
    targetCpuList: env?.cpuIsolation?.targetCpus ?? null,
    loadAvg1mAtStart: num(env?.loadAvg1mAtStart),
    outsideCpuPercent: num(env?.disturbance?.outsideCpuPercent),
    outsideCpuPercentBeforeStart: num(env?.disturbanceBeforeStart?.outsideCpuPercent),
  };
}
