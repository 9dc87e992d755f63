import type { Db } from '@poolbench/db';
import { RUN_METRICS, median } from '@poolbench/stats';
import { scriptMetricSummaries } from '../compare/script-metrics';
import { experimentCells, measuredRuns } from './experiment-cells';

/** Per cell: each metric summarized across its succeeded repeats, and threshold outcomes. */
export async function experimentSummary(db: Db, teamId: string, experimentId: string) {
  const e = await experimentCells(db, teamId, experimentId);
  const cells = e.cells.map((c) => {
    const ok = measuredRuns(c.runs);
    const metrics = RUN_METRICS.map((d) => {
      const values = ok
        .map((r) => d.value(r.summary!))
        .filter((v): v is number => v !== null && Number.isFinite(v));
      return {
        key: d.key,
        label: d.label,
        unit: d.unit,
        n: values.length,
        median: values.length ? median(values) : null,
        min: values.length ? Math.min(...values) : null,
        max: values.length ? Math.max(...values) : null,
      };
    });
    const results = c.runs.flatMap((r) =>
      (r.thresholdResults ?? []).map((t) => ({ ...t, runId: r.id })),
    );
    return {
      poolConfig: c.poolConfig,
      scenario: c.scenario,
      runs: c.runs.length,
      succeeded: ok.length,
      metrics,
      // the script's own metrics, median over the measured runs (descriptive, as the compare's)
      scriptMetrics: scriptMetricSummaries(ok),
      thresholds: {
        passed: results.filter((t) => t.pass).length,
        failed: results.filter((t) => !t.pass).length,
        failures: results.filter((t) => !t.pass),
      },
    };
  });
  return {
    experimentId: e.id,
    status: e.status,
    finished: e.finished,
    cells,
    thresholdsFailed: cells.some((c) => c.thresholds.failed > 0),
  };
}
