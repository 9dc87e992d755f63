import type { PoolConfigSnapshot, ScenarioSnapshot } from '@poolbench/db';
import { environmentInsightInput, insightInputOf, type InsightEnvironment } from '@poolbench/runs';
import {
  runInsights,
  type InsightCode,
  type InsightSecond,
  type RunSummary,
} from '@poolbench/stats';

/**
 * The insights a finished run's data gives, computed by the worker before it ends the run, so a
 * scenario's insight thresholds (`insight:<code>` is "absent") decide its status. The same inputs
 * the run page reads back from the stored run.
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
  return runInsights({
    summary: parts.summary,
    ...insightInputOf(parts.poolConfigSnapshot, parts.scenarioSnapshot),
    ...environmentInsightInput(parts.environment),
    generatorCpuPeaks: parts.generatorCpuPeaks ?? [],
    seconds: parts.seconds,
  }).map((i) => i.code);
}
