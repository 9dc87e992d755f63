import { scenarioFromColumns, type PoolConfigSnapshot, type ScenarioSnapshot } from '@poolbench/db';
import { plannedIterations, planScenario, ScenarioSchema, TEMPLATES } from '@poolbench/scenarios';
import {
  runInsights,
  type InsightSecond,
  type RunInsight,
  type RunInsightInput,
  type RunSummary,
} from '@poolbench/stats';

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

/** What a stored run's insights are read from (a Run select), its per-second rows aside. */
export const STORED_INSIGHT_SELECT = {
  summary: true,
  environment: true,
  poolConfigSnapshot: true,
  scenarioSnapshot: true,
  segments: { select: { cpuMaxPercent: true } },
} as const;

/** A stored run as `storedRunInsights` reads it (a parsed Run row with its segments). */
export interface StoredInsightRun {
  summary: RunSummary | null;
  environment: InsightEnvironment | null;
  poolConfigSnapshot: PoolConfigSnapshot;
  scenarioSnapshot: ScenarioSnapshot;
  /** a distributed run's load generators, each with its k6's CPU peak */
  segments?: ReadonlyArray<{ cpuMaxPercent: number | null }>;
}

/**
 * A stored run's insights, the one way every reader gets them: its summary, snapshots, machine and
 * load generators, and its seconds where the reader has read them (the run page). Without them the
 * insights that need the seconds are not judged; every other one is the same everywhere.
 */
export function storedRunInsights(run: StoredInsightRun, seconds?: InsightSecond[]): RunInsight[] {
  if (!run.summary) return [];
  return runInsights({
    summary: run.summary,
    ...insightInputOf(run.poolConfigSnapshot, run.scenarioSnapshot),
    ...environmentInsightInput(run.environment),
    generatorCpuPeaks: (run.segments ?? []).flatMap((g) =>
      g.cpuMaxPercent === null ? [] : [g.cpuMaxPercent],
    ),
    ...(seconds ? { seconds } : {}),
  });
}
