import type { Db } from '@poolbench/db';
import { compareRunGroups, type RunSummary } from '@poolbench/stats';
import { experimentCells, usable } from './experiment-cells';

interface BaselineRow {
  id: string;
  experimentId: string | null;
  runId: string | null;
  poolConfigId: string | null;
  scenarioId: string;
}

/** The baseline's runs: one pinned run, or every succeeded repeat of its experiment cell. */
async function baselineRuns(db: Db, teamId: string, b: BaselineRow) {
  const rows = await db.run.findMany({
    where: b.runId
      ? { id: b.runId, teamId }
      : { teamId, experimentId: b.experimentId ?? '-', scenarioId: b.scenarioId, status: 'succeeded', ...(b.poolConfigId ? { poolConfigId: b.poolConfigId } : {}) },
    select: { id: true, status: true, summary: true, poolConfigSnapshot: true },
  });
  return rows.filter((r) => r.status === 'succeeded' && r.summary);
}

/**
 * Compares every cell of an experiment with the baseline of that name for its target and
 * scenario, metric by metric with compareRunGroups (one value per run, Mann-Whitney U,
 * Hodges-Lehmann interval, practical floor). A regression is a tested metric whose verdict is
 * `worse`; `inconclusive` is not a regression (the gate must not cry wolf on too few runs).
 */
export async function compareWithBaseline(db: Db, teamId: string, experimentId: string, baselineName: string) {
  const e = await experimentCells(db, teamId, experimentId);
  const baselines = await db.baseline.findMany({
    where: { teamId, targetId: e.targetId, name: baselineName, scenarioId: { in: e.cells.flatMap((c) => (c.scenario ? [c.scenario.id] : [])) } },
    select: { id: true, experimentId: true, runId: true, poolConfigId: true, scenarioId: true, poolConfig: { select: { id: true, name: true } } },
  });
  const cells = [];
  for (const c of e.cells) {
    const b = baselines.find((x) => x.scenarioId === c.scenario?.id);
    const candidate = usable(c.runs);
    if (!b) {
      cells.push({ poolConfig: c.poolConfig, scenario: c.scenario, baseline: null, candidateRuns: candidate.length, regression: false, metrics: [] });
      continue;
    }
    const base = (await baselineRuns(db, teamId, b)).filter((r) => !c.runs.some((x) => x.id === r.id));
    const cmp = compareRunGroups(
      { label: baselineName, summaries: base.map((r) => r.summary as unknown as RunSummary) },
      { label: c.poolConfig?.name ?? 'candidate', summaries: candidate.map((r) => r.summary) },
    );
    const metrics = cmp.metrics.map((m) => ({
      key: m.def.key,
      label: m.def.label,
      unit: m.def.unit,
      direction: m.direction,
      verdict: m.verdict,
      baselineMedian: m.baseline.median,
      candidateMedian: m.candidate.median,
      changePercent: m.changePercent,
      confidence: m.confidence,
      pValue: m.pValue,
      insufficient: m.insufficient,
      lowRequests: m.lowRequests,
      reason: m.reason,
    }));
    cells.push({
      poolConfig: c.poolConfig,
      scenario: c.scenario,
      baseline: { id: b.id, experimentId: b.experimentId, runId: b.runId, poolConfig: b.poolConfig, runs: base.length },
      candidateRuns: candidate.length,
      regression: metrics.some((m) => m.verdict === 'worse'),
      metrics,
    });
  }
  const outcome: 'pass' | 'regression' | 'no-baseline' = cells.some((c) => c.regression) ? 'regression' : cells.some((c) => !c.baseline) ? 'no-baseline' : 'pass';
  return { experimentId: e.id, baseline: baselineName, outcome, cells };
}
