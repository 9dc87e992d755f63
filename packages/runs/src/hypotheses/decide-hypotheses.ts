import { parseRun, type Db } from '@poolbench/db';
import { MEASURED_RUN_STATUSES } from '@poolbench/scenarios';
import {
  decideHypothesis,
  hypothesisRepeatsNeeded,
  runMetric,
  type HypothesisRule,
  type RunSummary,
} from '@poolbench/stats';
import { windowSummaries } from '../summaries/window-summaries';
import { latestNoiseFloors, noiseFloorKey, noiseFloorNote } from '../calibration/noise-floor';

/**
 * Decides every hypothesis of a finished experiment (status holds / does_not_hold / unresolved,
 * change, interval, p, reason, the runs used) from the same per-run values the compare view
 * compares: the measured runs of each cell (succeeded or thresholds_failed: the load ran and was measured), each run's summary (or, with a window, its summary
 * rebuilt over those seconds by `windowSummaries`, as the compare view does), one value per run
 * from `RUN_METRICS`. Unresolved ones get an estimate of the repeats per side that would likely
 * resolve them. Does nothing while the experiment still has runs to go; deciding again gives the
 * same answer, so concurrent callers are harmless. Returns how many hypotheses it decided.
 */
export async function decideExperimentHypotheses(db: Db, experimentId: string): Promise<number> {
  const exp = await db.experiment.findUnique({
    where: { id: experimentId },
    select: {
      finishedAt: true,
      teamId: true,
      targetId: true,
      hypotheses: { orderBy: { position: 'asc' } },
    },
  });
  if (!exp || exp.finishedAt === null || exp.hypotheses.length === 0) return 0;
  const floors = await latestNoiseFloors(
    db,
    exp.teamId,
    exp.hypotheses.flatMap((h) => [
      { targetId: exp.targetId, scenarioId: h.baseScenarioId },
      { targetId: exp.targetId, scenarioId: h.candidateScenarioId },
    ]),
  );
  const rows = await db.run.findMany({
    where: { experimentId, status: { in: [...MEASURED_RUN_STATUSES] } },
    select: {
      id: true,
      poolConfigId: true,
      scenarioId: true,
      poolConfigSnapshot: true,
      summary: true,
    },
    orderBy: [{ repeatIndex: 'asc' }, { id: 'asc' }],
  });
  const runs = rows.map(parseRun);
  type UsableRun = (typeof runs)[number];
  const windows = new Map<string, Map<string, RunSummary | null>>();
  const summariesOver = async (
    cellRuns: UsableRun[],
    window: { from: number; to: number } | null,
  ) => {
    if (!window) return cellRuns.map((r) => r.summary);
    const key = `${window.from}:${window.to}`;
    let byRun = windows.get(key);
    if (!byRun) {
      byRun = await windowSummaries(
        db,
        runs.map((r) => ({ id: r.id, finished: true })),
        window,
      );
      windows.set(key, byRun);
    }
    return cellRuns.map((r) => byRun!.get(r.id) ?? null);
  };
  const decidedAt = new Date();
  for (const h of exp.hypotheses) {
    const def = runMetric(h.metric);
    const cellRuns = (poolConfigId: string, scenarioId: string) =>
      runs.filter((r) => r.poolConfigId === poolConfigId && r.scenarioId === scenarioId);
    const baseRuns = cellRuns(h.basePoolConfigId, h.baseScenarioId);
    const candRuns = cellRuns(h.candidatePoolConfigId, h.candidateScenarioId);
    const window =
      h.windowFrom !== null && h.windowTo !== null ? { from: h.windowFrom, to: h.windowTo } : null;
    // A run without a value for the metric (or without data in the window) is not a sample of the cell.
    const usable = async (list: UsableRun[]) => {
      const summaries = await summariesOver(list, window);
      return list.flatMap((r, i) => {
        const s = summaries[i];
        const v = s && def ? def.value(s) : null;
        return v !== null && Number.isFinite(v) ? [{ id: r.id, value: v }] : [];
      });
    };
    const base = await usable(baseRuns);
    const cand = await usable(candRuns);
    const rule: HypothesisRule = {
      metric: h.metric,
      expect: h.expect as HypothesisRule['expect'],
      band: h.band,
      bandUnit: h.bandUnit as HypothesisRule['bandUnit'],
    };
    const candidateName = candRuns[0]?.poolConfigSnapshot.name || 'the candidate';
    const d = def
      ? decideHypothesis(
          base.map((x) => x.value),
          cand.map((x) => x.value),
          rule,
          { candidateName },
        )
      : null;
    const repeatsNeeded =
      d && d.status === 'unresolved' && base.length > 0 && cand.length > 0
        ? hypothesisRepeatsNeeded(
            base.map((x) => x.value),
            cand.map((x) => x.value),
            rule,
          )
        : null;
    await db.hypothesis.update({
      where: { id: h.id },
      data: {
        status: d?.status ?? 'unresolved',
        change: d?.change ?? null,
        low: d?.interval?.low ?? null,
        high: d?.interval?.high ?? null,
        changeUnit: d ? d.changeUnit : null,
        p: d?.p ?? null,
        reason: d
          ? d.status === 'unresolved'
            ? `${d.reason}${noiseFloorNote(rule, [
                floors.get(noiseFloorKey(exp.targetId, h.baseScenarioId)),
                floors.get(noiseFloorKey(exp.targetId, h.candidateScenarioId)),
              ])}`
            : d.reason
          : `unknown metric "${h.metric}"`,
        repeatsNeeded,
        decidedAt,
        runsUsed: [...base, ...cand].map((x) => x.id),
      },
    });
  }
  return exp.hypotheses.length;
}

/**
 * Decides the hypotheses of experiments that finished but were not decided since (the process
 * that ended the last run died before it got there, or the experiment was extended and finished
 * again). The lifecycle sweeper calls it, so no finished experiment keeps a pending claim.
 */
export async function decideOverdueHypotheses(
  db: Db,
  opts: { limit?: number } = {},
): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT DISTINCT e.id FROM "Experiment" e JOIN "Hypothesis" h ON h."experimentId" = e.id
     WHERE e."finishedAt" IS NOT NULL AND (h."decidedAt" IS NULL OR h."decidedAt" < e."finishedAt")
     LIMIT ${opts.limit ?? 20}`;
  for (const r of rows) await decideExperimentHypotheses(db, r.id);
  return rows.map((r) => r.id);
}
