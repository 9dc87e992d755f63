import type { Db } from '@poolbench/db';
import { TESTED_RUN_METRIC_KEYS, type TestedRunMetricKey } from '@poolbench/stats';
import { buildComparison } from '../compare/build-comparison';
import type { CompareItem } from '~/lib/compare/selection';
import { experimentCells, usable } from './experiment-cells';

/**
 * Compares every cell (pool config x scenario) of an experiment with the baseline of that name for
 * its target and scenario, through the compare service the UI uses (one value per run, Mann-Whitney
 * U, Hodges-Lehmann interval, practical floor, p adjusted across metrics). A regression is a
 * tested metric whose verdict is `worse`; `inconclusive` is not one: a gate that cries wolf on too
 * few runs gets switched off.
 *
 * `gateMetrics` limits the comparison to those tested metrics (p adjusted over them alone); the
 * answer's `gatedOn` says which metrics the verdict rests on either way.
 */
export async function compareWithBaseline(
  db: Db,
  teamId: string,
  experimentId: string,
  baselineName: string,
  gateMetrics?: readonly TestedRunMetricKey[],
  /** compare only these elapsed seconds [from, to) of every run */
  window: { from: number; to: number } | null = null,
) {
  const gatedOn = gateMetrics ? TESTED_RUN_METRIC_KEYS.filter((k) => gateMetrics.includes(k)) : [...TESTED_RUN_METRIC_KEYS];
  const e = await experimentCells(db, teamId, experimentId);
  const baselines = await db.baseline.findMany({
    where: { teamId, targetId: e.targetId, name: baselineName, scenarioId: { in: e.cells.flatMap((c) => (c.scenario ? [c.scenario.id] : [])) } },
    select: { id: true, experimentId: true, runId: true, poolConfigId: true, scenarioId: true, poolConfig: { select: { id: true, name: true } } },
  });
  const cells = [];
  for (const c of e.cells) {
    const b = baselines.find((x) => x.scenarioId === c.scenario?.id);
    const candidateRuns = usable(c.runs).length;
    const baseItem: CompareItem | null = !b ? null : b.runId ? { kind: 'run', runId: b.runId } : b.experimentId && b.poolConfigId ? { kind: 'cell', experimentId: b.experimentId, poolConfigId: b.poolConfigId, scenarioId: b.scenarioId } : null;
    if (!b || !baseItem || !c.poolConfig || !c.scenario) {
      cells.push({ poolConfig: c.poolConfig, scenario: c.scenario, baseline: null, candidateRuns, regression: false, metrics: [] });
      continue;
    }
    const baseline = { id: b.id, experimentId: b.experimentId, runId: b.runId, poolConfig: b.poolConfig };
    if (candidateRuns === 0) {
      // nothing measured yet (or every run failed): no verdict, and the outcome says incomplete
      cells.push({ poolConfig: c.poolConfig, scenario: c.scenario, baseline: { ...baseline, runs: 0 }, candidateRuns, regression: false, metrics: [] });
      continue;
    }
    const cmp = await buildComparison(db, teamId, {
      items: [baseItem, { kind: 'cell', experimentId: e.id, poolConfigId: c.poolConfig.id, scenarioId: c.scenario.id }],
      baseline: 0,
      window,
    }, { maxPoints: 1, ...(gateMetrics ? { gateMetrics: gatedOn } : {}) });
    const metrics = cmp.rows.flatMap((row) => {
      const m = row.comparisons[1];
      if (!row.tested || !m?.verdict) return [];
      return [{
        key: row.key,
        label: row.label,
        unit: row.unit,
        direction: row.direction,
        verdict: m.verdict,
        baselineMedian: row.cells[0]?.median ?? null,
        candidateMedian: m.median,
        changePercent: m.changePercent,
        confidence: 0.95, // buildComparison uses the stats defaults: alpha 0.05, interval 1 - alpha
        pValue: m.pValue,
        insufficient: m.insufficient,
        lowRequests: m.lowRequests,
        reason: m.reason ?? '',
      }];
    });
    cells.push({
      poolConfig: c.poolConfig,
      scenario: c.scenario,
      baseline: { ...baseline, runs: cmp.groups[0]?.repeats ?? 0 },
      candidateRuns,
      regression: metrics.some((m) => m.verdict === 'worse'),
      metrics,
    });
  }
  const outcome: 'pass' | 'regression' | 'no-baseline' | 'incomplete' = cells.some((c) => c.regression)
    ? 'regression'
    : cells.some((c) => !c.baseline)
      ? 'no-baseline'
      : cells.some((c) => c.candidateRuns === 0)
        ? 'incomplete'
        : 'pass';
  return { experimentId: e.id, baseline: baselineName, gatedOn, window, outcome, cells };
}
