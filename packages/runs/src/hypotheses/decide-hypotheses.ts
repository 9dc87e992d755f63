import { parseExperiment, parseRun, type Db } from '@poolbench/db';
import { MEASURED_RUN_STATUSES } from '@poolbench/contracts';
import {
  decideHypothesis,
  hypothesisRepeatsNeeded,
  runMetric,
  type HypothesisRule,
  type RunSummary,
} from '@poolbench/stats';
import { storedWindow } from '@poolbench/scenarios';
import { windowSummaries } from '../summaries/window-summaries';
import { eachOverdue, type OverdueOptions } from '../overdue';
import { latestNoiseFloors, noiseFloorKey, noiseFloorNote } from '../calibration/noise-floor';

type HypothesisRow = Awaited<ReturnType<Db['hypothesis']['findMany']>>[number];

/** One measured run of a hypothesis's cell: its value of the metric (null: none, or no data in the window). */
export interface CellValue {
  id: string;
  repeatIndex: number;
  value: number | null;
}

export interface HypothesisData {
  h: HypothesisRow;
  rule: HypothesisRule;
  /** false: the metric is not a run metric */
  known: boolean;
  candidateName: string;
  /** the measured runs of the base and candidate cells, by repeat index */
  base: CellValue[];
  cand: CellValue[];
}

/**
 * Each hypothesis with the per-run values of its two cells, read as the compare view reads them:
 * the measured runs of each cell (succeeded or thresholds_failed: the load ran and was measured),
 * each run's summary (or, with a window, its summary rebuilt over those seconds by
 * `windowSummaries`), one value per run from `RUN_METRICS`.
 */
export async function hypothesisData(
  db: Db,
  experimentId: string,
  hypotheses: HypothesisRow[],
): Promise<HypothesisData[]> {
  const rows = await db.run.findMany({
    where: { experimentId, status: { in: [...MEASURED_RUN_STATUSES] } },
    select: {
      id: true,
      poolConfigId: true,
      scenarioId: true,
      repeatIndex: true,
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
  const out: HypothesisData[] = [];
  for (const h of hypotheses) {
    const def = runMetric(h.metric);
    const cellRuns = (poolConfigId: string, scenarioId: string) =>
      runs.filter((r) => r.poolConfigId === poolConfigId && r.scenarioId === scenarioId);
    const baseRuns = cellRuns(h.basePoolConfigId, h.baseScenarioId);
    const candRuns = cellRuns(h.candidatePoolConfigId, h.candidateScenarioId);
    const window = storedWindow(h);
    const values = async (list: UsableRun[]): Promise<CellValue[]> => {
      const summaries = await summariesOver(list, window);
      return list.map((r, i) => {
        const s = summaries[i];
        const v = s && def ? def.value(s) : null;
        return {
          id: r.id,
          repeatIndex: r.repeatIndex,
          value: v !== null && Number.isFinite(v) ? v : null,
        };
      });
    };
    out.push({
      h,
      rule: {
        metric: h.metric,
        expect: h.expect as HypothesisRule['expect'],
        band: h.band,
        bandUnit: h.bandUnit as HypothesisRule['bandUnit'],
      },
      known: Boolean(def),
      candidateName: candRuns[0]?.poolConfigSnapshot.name || 'the candidate',
      base: await values(baseRuns),
      cand: await values(candRuns),
    });
  }
  return out;
}

/** A run without a value for the metric (or without data in the window) is not a sample of the cell. */
const usable = (xs: CellValue[]) =>
  xs.filter((x): x is CellValue & { value: number } => x.value !== null);

/**
 * Decides every hypothesis of a finished experiment (status holds / does_not_hold / unresolved,
 * change, interval, p, reason, the runs used) from the same per-run values the compare view
 * compares (`hypothesisData`). An "until decided" experiment's hypotheses take the sequential
 * rule's decisions (`continueSequential`, stored in its sequentialState): testing them again with
 * the fixed-design test after looking at every pair would not be valid. Unresolved ones of a
 * fixed design get an estimate of the repeats per side that would likely resolve them; an
 * unresolved one says when an A/A noise floor of its target × scenario is wider than its band.
 * Does nothing while the experiment still has runs to go; deciding again gives the same answer,
 * so concurrent callers are harmless. Returns how many hypotheses it decided.
 */
export async function decideExperimentHypotheses(db: Db, experimentId: string): Promise<number> {
  const row = await db.experiment.findUnique({
    where: { id: experimentId },
    select: {
      finishedAt: true,
      teamId: true,
      targetId: true,
      untilDecidedMaxRepeats: true,
      sequentialState: true,
      hypotheses: { orderBy: { position: 'asc' } },
    },
  });
  if (!row || row.finishedAt === null || row.hypotheses.length === 0) return 0;
  const exp = parseExperiment(row);
  const floors = await latestNoiseFloors(
    db,
    exp.teamId,
    exp.hypotheses.flatMap((h) => [
      { targetId: exp.targetId, scenarioId: h.baseScenarioId },
      { targetId: exp.targetId, scenarioId: h.candidateScenarioId },
    ]),
  );
  const sequential = exp.untilDecidedMaxRepeats ? exp.sequentialState : null;
  const decidedAt = new Date();
  for (const d of await hypothesisData(db, experimentId, exp.hypotheses)) {
    const { h, rule } = d;
    const base = usable(d.base);
    const cand = usable(d.cand);
    const floorNote = () =>
      noiseFloorNote(rule, [
        floors.get(noiseFloorKey(exp.targetId, h.baseScenarioId)),
        floors.get(noiseFloorKey(exp.targetId, h.candidateScenarioId)),
      ]);
    const seq = sequential?.metrics.find((m) => m.hypothesis === h.position);
    if (d.known && seq) {
      const status = sequentialStatus(rule.expect, seq.decision);
      // the runs of the pairs the deciding look used (later rounds ran for other claims)
      const pairs = seq.lookPairs ?? sequential!.pairs;
      const used = [...base, ...cand].filter((x) => x.repeatIndex < pairs);
      await db.hypothesis.update({
        where: { id: h.id },
        data: {
          status,
          change: seq.change?.estimate ?? null,
          low: seq.change?.lower ?? null,
          high: seq.change?.upper ?? null,
          changeUnit: seq.changeUnit ?? null,
          p: seq.p ?? null,
          reason: `${seq.reason}${status === 'unresolved' ? floorNote() : ''}`,
          repeatsNeeded: null,
          decidedAt,
          runsUsed: used.map((x) => x.id),
        },
      });
      continue;
    }
    const decision = d.known
      ? decideHypothesis(
          base.map((x) => x.value),
          cand.map((x) => x.value),
          rule,
          { candidateName: d.candidateName },
        )
      : null;
    const repeatsNeeded =
      decision && decision.status === 'unresolved' && base.length > 0 && cand.length > 0
        ? hypothesisRepeatsNeeded(
            base.map((x) => x.value),
            cand.map((x) => x.value),
            rule,
          )
        : null;
    await db.hypothesis.update({
      where: { id: h.id },
      data: {
        status: decision?.status ?? 'unresolved',
        change: decision?.change ?? null,
        low: decision?.interval?.low ?? null,
        high: decision?.interval?.high ?? null,
        changeUnit: decision ? decision.changeUnit : null,
        p: decision?.p ?? null,
        reason: decision
          ? decision.status === 'unresolved'
            ? `${decision.reason}${floorNote()}`
            : decision.reason
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
 * A hypothesis's status from the sequential rule's decision of its comparison (better and worse
 * are the candidate's, in the metric's direction): better/worse claims hold when that direction is
 * decided and do not when the other one is, no change beyond the band is, or the change is shown
 * to fall short of the band the claimed way; an equivalence holds when no change beyond its band
 * is decided. Anything else (budget reached, stopped) is unresolved.
 */
export function sequentialStatus(
  expect: HypothesisRule['expect'],
  decision: string,
): 'holds' | 'does_not_hold' | 'unresolved' {
  if (decision === 'better' || decision === 'worse')
    return expect === decision ? 'holds' : 'does_not_hold';
  if (decision === 'no-difference-within-floor')
    return expect === 'equivalent' ? 'holds' : 'does_not_hold';
  if (decision === 'short-of-claim')
    return expect === 'equivalent' ? 'unresolved' : 'does_not_hold';
  return 'unresolved';
}

/**
 * Decides the hypotheses of experiments that finished but were not decided since (the process
 * that ended the last run died before it got there, or the experiment was extended and finished
 * again). The lifecycle sweeper calls it, so no finished experiment keeps a pending claim.
 */
export async function decideOverdueHypotheses(
  db: Db,
  opts: OverdueOptions = {},
): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT e.id FROM "Experiment" e
     WHERE e."finishedAt" IS NOT NULL
       AND EXISTS (SELECT 1 FROM "Hypothesis" h WHERE h."experimentId" = e.id
                     AND (h."decidedAt" IS NULL OR h."decidedAt" < e."finishedAt"))
     ORDER BY random() LIMIT ${opts.limit ?? 20}`;
  return eachOverdue(rows, opts, async (id) => {
    await decideExperimentHypotheses(db, id);
    return true;
  });
}
