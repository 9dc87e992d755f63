import { parseRun, type Db } from '@poolbench/db';
import { presetHypothesisStatement, type Preset } from '@poolbench/scenarios';
import { MEASURED_RUN_STATUSES } from '@poolbench/contracts';
import { decideHypothesis, runMetric } from '@poolbench/stats';
import type { SeedClaimResult } from './seed-claim';
import { cellPairPath } from '@poolbench/contracts/links';

/**
 * For a seed experiment that has no stored hypotheses (launched by a build that could not store
 * them), its preset's claims decided from the stored runs with the same rule
 * (`decideHypothesis`), said so in the reason. Stored decisions always win over this.
 */
export async function decideUnstored(
  db: Db,
  experimentId: string,
  preset: Preset,
): Promise<SeedClaimResult[]> {
  const exp = await db.experiment.findUniqueOrThrow({
    where: { id: experimentId },
    select: {
      poolConfigs: { select: { poolConfig: { select: { id: true, name: true } } } },
      scenarios: { select: { scenario: { select: { id: true, presetId: true } } } },
      runs: {
        where: { status: { in: [...MEASURED_RUN_STATUSES] } },
        select: { poolConfigId: true, scenarioId: true, summary: true },
      },
    },
  });
  const runs = exp.runs.map(parseRun);
  const pcId = (name: string) =>
    exp.poolConfigs.find((p) => p.poolConfig.name.split(' · ')[1] === name)?.poolConfig.id;
  const scId = (id: string) =>
    exp.scenarios.find((s) => s.scenario.presetId === `${preset.id}#${id}`)?.scenario.id;
  const label = (id: string) => preset.scenarios.find((s) => s.id === id)?.label ?? id;
  return preset.hypotheses.map((h) => {
    const cell = (c: { poolConfig: string; scenario: string }) => ({
      poolConfigId: pcId(c.poolConfig) ?? '?',
      scenarioId: scId(c.scenario) ?? '?',
    });
    const base = cell(h.base);
    const cand = cell(h.candidate);
    const metric = runMetric(h.metric)!;
    const values = (c: typeof base) =>
      runs
        .filter(
          (r) => r.poolConfigId === c.poolConfigId && r.scenarioId === c.scenarioId && r.summary,
        )
        .map((r) => metric.value(r.summary!) ?? NaN);
    const d = decideHypothesis(
      values(base),
      values(cand),
      { metric: h.metric, expect: h.expect, band: h.band, bandUnit: h.bandUnit },
      { candidateName: h.candidate.poolConfig },
    );
    return {
      claim: h.claim ?? null,
      statement: presetHypothesisStatement(h, label),
      status: d.status,
      change: d.change,
      low: d.interval?.low ?? null,
      high: d.interval?.high ?? null,
      changeUnit: d.changeUnit,
      p: d.p,
      reason: `${d.reason} (decided from the stored runs by make seeds: this build stored no hypotheses with the experiment)`,
      comparePath: cellPairPath(experimentId, base, cand),
      decidedBy: 'runs' as const,
      runsUsed: values(base).length + values(cand).length,
      disturbancePercent: null,
      insights: [],
    };
  });
}
