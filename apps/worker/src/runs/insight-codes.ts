import type { PoolConfigSnapshot, ScenarioSnapshot } from '@poolbench/db';
import { storedRunInsights, type InsightEnvironment } from '@poolbench/runs';
import type { InsightCode, InsightSecond, RunSummary } from '@poolbench/stats';

/**
 * The insights a finished run's data gives, computed by the worker before it ends the run, so a
 * scenario's insight thresholds (`insight:<code>` is "absent") decide its status: the run as it
 * is about to be stored, read the way every reader reads it back (`storedRunInsights`).
 */
export function insightCodesOf(parts: {
  summary: RunSummary;
  poolConfigSnapshot: PoolConfigSnapshot;
  scenarioSnapshot: ScenarioSnapshot;
  environment: InsightEnvironment;
  /** the run's seconds, in order, with their active VUs and slowest request */
  seconds: InsightSecond[];
  generatorCpuPeaks?: number[];
}): InsightCode[] {
  const segments = (parts.generatorCpuPeaks ?? []).map((cpuMaxPercent) => ({ cpuMaxPercent }));
  return storedRunInsights({ ...parts, segments }, parts.seconds).map((i) => i.code);
}
