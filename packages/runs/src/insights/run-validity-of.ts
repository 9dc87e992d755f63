import type { PoolConfigSnapshot, ScenarioSnapshot } from '@poolbench/db';
import { runValidity, type InvalidRun, type RunSummary, type RunValidity } from '@poolbench/stats';
import { insightInputOf } from './insight-input';

/** What `runValidityOf` reads of a run (a parsed Run row). */
export interface ValidityRun {
  id: string;
  summary: RunSummary | null;
  poolConfigSnapshot: PoolConfigSnapshot;
  scenarioSnapshot: ScenarioSnapshot;
}

/** A run's validity (`runValidity` of @poolbench/stats) from its summary and scenario snapshot. */
export function runValidityOf(run: ValidityRun): RunValidity {
  const input = insightInputOf(run.poolConfigSnapshot, run.scenarioSnapshot);
  return runValidity({
    summary: run.summary,
    model: input.model,
    plannedIterations: input.plannedIterations,
  });
}

/**
 * A cell's measured runs split into the ones a verdict may use and the invalid ones, named with
 * their reasons: every place that judges a cell (compare view, CI gate, schedules, Trends) splits
 * its runs here, so they leave out the same runs for the same reasons.
 */
export function splitValidRuns<R extends ValidityRun>(
  runs: readonly R[],
): { valid: R[]; invalid: InvalidRun[] } {
  const valid: R[] = [];
  const invalid: InvalidRun[] = [];
  for (const r of runs) {
    const v = runValidityOf(r);
    if (v.valid) valid.push(r);
    else invalid.push({ runId: r.id, reasons: v.reasons });
  }
  return { valid, invalid };
}
