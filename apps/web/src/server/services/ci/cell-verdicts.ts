import type { Db } from '@poolbench/db';
import type { TestedRunMetricKey } from '@poolbench/contracts';
import { buildComparison } from '../compare/build-comparison';
import type { CompareItem } from '~/lib/compare/selection';

/** The level every comparison's interval is asked for (two-sided, α = 0.05). */
const NOMINAL_CONFIDENCE = 0.95;

/**
 * Verdicts per tested metric of one candidate against one reference (a baseline's runs, or another
 * pool config of the same experiment), through the compare service the UI uses: one value per run,
 * Mann-Whitney U, Hodges-Lehmann interval, practical floor, p adjusted across the gated metrics.
 */
export async function cellVerdicts(
  db: Db,
  teamId: string,
  reference: CompareItem,
  candidate: CompareItem,
  gateMetrics: readonly TestedRunMetricKey[] | undefined,
  window: { from: number; to: number } | null,
) {
  const cmp = await buildComparison(
    db,
    teamId,
    { items: [reference, candidate], baseline: 0, window },
    { maxPoints: 1, ...(gateMetrics ? { gateMetrics } : {}) },
  );
  const metrics = cmp.rows.flatMap((row) => {
    const m = row.comparisons[1];
    if (!row.tested || !m?.verdict) return [];
    return [
      {
        key: row.key,
        label: row.label,
        unit: row.unit,
        direction: row.direction,
        verdict: m.verdict,
        suspected: m.suspectedWorse,
        primary: m.primary,
        baselineMedian: row.cells[0]?.median ?? null,
        candidateMedian: m.median,
        changePercent: m.changePercent,
        // /api/v1 answered the requested level here from its first release: a field keeps its
        // meaning within v1, so the coverage the interval really has (90 % with 3 vs 3 runs) is
        // the added achievedConfidence
        confidence: NOMINAL_CONFIDENCE,
        achievedConfidence: m.achievedConfidence ?? NOMINAL_CONFIDENCE,
        pValue: m.pValue,
        insufficient: m.insufficient,
        lowRequests: m.lowRequests,
        noiseFloor: m.noiseFloor,
        noiseWarning: m.noiseWarning,
        reason: m.reason ?? '',
      },
    ];
  });
  // the script's own metrics both sides recorded, as the compare view lists them: descriptive,
  // over whole runs (a window does not apply), never part of a verdict
  const scriptMetrics = cmp.scriptMetrics.map((r) => ({
    name: r.name,
    type: r.type,
    stat: r.stat,
    unit: r.unit,
    baselineMedian: r.cells[0]?.median ?? null,
    baselineRuns: r.cells[0]?.n ?? 0,
    candidateMedian: r.cells[1]?.median ?? null,
    candidateRuns: r.cells[1]?.n ?? 0,
    difference: r.diffs[1] ?? null,
  }));
  return {
    referenceRuns: cmp.groups[0]?.repeats ?? 0,
    referenceInvalid: cmp.groups[0]?.invalidRuns ?? [],
    metrics,
    scriptMetrics,
  };
}
