import { parseRun, toJson, type Db, type NotificationPayload } from '@poolbench/db';
import { EXPERIMENT_MATRIX_SELECT } from '../experiment-matrix';
import { eachOverdue, type OverdueOptions } from '../overdue';
import { baselineForCell } from './baseline-for-cell';
import { splitValidRuns } from '../insights/run-validity-of';
import { extendExperiment, MAX_REPEATS } from '../extend-experiment';
import { changePointsNewAt } from '../history/new-change-points';
import {
  CRASHED_RUN_STATUSES,
  MEASURED_RUN_STATUSES,
  type ChangePoint,
} from '@poolbench/contracts';
import {
  cellState,
  compareRunGroups,
  gateOutcome,
  incompleteReason,
  loadNotTakenReason,
  isSuspectedWorse,
  MIN_RUNS_PER_SIDE,
  runMetric,
  runMetricRepeatsNeeded,
  type CellState,
  type FailedThreshold,
  type InvalidRun,
  type RunSummary,
} from '@poolbench/stats';

export type ScheduleOutcome = NotificationPayload['outcome'];

/**
 * A scheduled experiment's outcome against its schedule's baseline, decided once when its last
 * run ended and stored as a ScheduleNotification (unique per experiment, so the run that ended it,
 * the sweeper and a second worker cannot decide it twice). Each cell (pool config × scenario) is
 * compared with the baseline of that name saved for the same target, scenario and pool config,
 * through `compareRunGroups`: the test the compare view and `poolbench run --baseline` use. The
 * outcome follows the one rule of `@poolbench/stats` (`gateOutcome`): a `worse` verdict or a
 * failed threshold is a regression, a primary metric one-sided significantly worse beyond the
 * floor but not yet decided is a suspected regression (with the repeats that would settle it),
 * and each failed threshold is named with its run. Invalid runs (`splitValidRuns`: the load was not
 * offered, samples were lost) are left out on both sides and named in the cell's `invalidRuns`; a
 * baseline saved as one run is that run. A cell with fewer valid runs on a side than the test
 * needs (for any primary metric to reach alpha), or with more of its runs crashed or invalid than
 * `MAX_CRASHED_SHARE`, is `incomplete` with the reason: crashed and invalid runs are counted,
 * never dropped.
 *
 * With the schedule's `settleUpToRepeats`, a suspected regression is first settled: the firing
 * grows once to that many repeats per cell (runs saved queued, the sweeper enqueues them) and is
 * decided when they ended; null is returned meanwhile.
 *
 * The notification is `pending` (a worker delivers it) when the schedule has a webhook and the
 * outcome is a regression, a suspected one or incomplete, or on every outcome with notifyOn = always;
 * `not_needed` otherwise. Returns the outcome, or null when there is nothing to decide (not
 * scheduled, runs still going, already decided).
 */
export async function decideScheduleOutcome(
  db: Db,
  experimentId: string,
  now: Date = new Date(),
): Promise<ScheduleOutcome | null> {
  const e = await db.experiment.findUnique({
    where: { id: experimentId },
    select: {
      id: true,
      name: true,
      teamId: true,
      targetId: true,
      repeats: true,
      createdAt: true,
      finishedAt: true,
      target: { select: { id: true, name: true } },
      schedule: {
        select: {
          id: true,
          name: true,
          baselineName: true,
          webhookUrlSealed: true,
          notifyOn: true,
          settleUpToRepeats: true,
        },
      },
      notification: { select: { id: true } },
      ...EXPERIMENT_MATRIX_SELECT,
    },
  });
  if (!e || !e.schedule || e.finishedAt === null || e.notification) return null;
  const schedule = e.schedule;
  const measured = (
    where: { experimentId: string; poolConfigId?: string; scenarioId?: string } | { id: string },
  ) =>
    db.run
      .findMany({
        where: { ...where, status: { in: [...MEASURED_RUN_STATUSES] } },
        select: {
          id: true,
          poolConfigId: true,
          scenarioId: true,
          summary: true,
          thresholdResults: true,
          poolConfigSnapshot: true,
          scenarioSnapshot: true,
        },
        orderBy: [{ repeatIndex: 'asc' }, { id: 'asc' }],
      })
      .then((rows) =>
        rows.map(parseRun).flatMap((r) => (r.summary ? [{ ...r, summary: r.summary }] : [])),
      );
  // the firing's own runs in one read; each baseline (one per scenario) in one more
  const own = await measured({ experimentId: e.id });
  const crashed = await db.run.findMany({
    where: { experimentId: e.id, status: { in: [...CRASHED_RUN_STATUSES] } },
    select: { poolConfigId: true, scenarioId: true },
  });

  const baselines = schedule.baselineName
    ? await db.baseline.findMany({
        where: { teamId: e.teamId, targetId: e.targetId, name: schedule.baselineName },
        select: {
          scenarioId: true,
          runId: true,
          experimentId: true,
          poolConfigId: true,
          run: { select: { poolConfigId: true } },
        },
      })
    : [];
  const cells: NotificationPayload['cells'] = [];
  const gateCells: Parameters<typeof gateOutcome>[0][number][] = [];
  for (const { poolConfig } of e.poolConfigs) {
    for (const { scenario } of e.scenarios) {
      const measuredRuns = own.filter(
        (r) => r.poolConfigId === poolConfig.id && r.scenarioId === scenario.id,
      );
      const { valid: candidateRuns, invalid: invalidCandidate } = splitValidRuns(measuredRuns);
      const candidate = candidateRuns.map((r) => r.summary);
      // a failed threshold is the user's own rule about the run as it ran: never hidden
      const failedThresholds: FailedThreshold[] = measuredRuns.flatMap((r) =>
        (r.thresholdResults ?? [])
          .filter((t) => !t.pass)
          .map((t) => ({ runId: r.id, metric: t.metric, expr: t.expr, observed: t.observed })),
      );
      const b = baselineForCell(baselines, {
        scenarioId: scenario.id,
        poolConfigId: poolConfig.id,
      });
      let reference: RunSummary[] = [];
      let invalidBaseline: InvalidRun[] = [];
      if (b?.runId) reference = (await measured({ id: b.runId })).map((r) => r.summary);
      else if (b?.experimentId) {
        const split = splitValidRuns(
          await measured({
            experimentId: b.experimentId,
            poolConfigId: poolConfig.id,
            scenarioId: b.scenarioId,
          }),
        );
        reference = split.valid.map((r) => r.summary);
        invalidBaseline = split.invalid;
      }
      const crashedRuns = crashed.filter(
        (r) => r.poolConfigId === poolConfig.id && r.scenarioId === scenario.id,
      ).length;
      // the cell's whole history up to this firing: a change point first seen now is evidence too
      const changePoints = await changePointsNewAt(
        db,
        e.teamId,
        { targetId: e.targetId, scenarioId: scenario.id, poolConfigId: poolConfig.id },
        { id: e.id, createdAt: e.createdAt },
      );
      const counts = {
        baselineRuns: reference.length,
        candidateRuns: candidate.length,
        crashedRuns,
        invalidBaseline,
        invalidCandidate,
      };
      // a candidate that fell behind the load its baseline took is judged: a regression
      const loadNotTaken = b ? loadNotTakenReason(counts) : null;
      const incomplete = b && !loadNotTaken ? incompleteReason(counts) : null;
      const base = {
        poolConfig: poolConfig.name,
        scenario: scenario.name,
        baselineRuns: reference.length,
        candidateRuns: candidate.length,
        crashedRuns,
        incomplete,
        loadNotTaken,
        invalidRuns: [
          ...invalidBaseline.map((r) => ({ ...r, side: 'baseline' as const })),
          ...invalidCandidate.map((r) => ({ ...r, side: 'candidate' as const })),
        ],
        failedThresholds,
        changePoints: changePoints.map(changePointPayload),
      };
      if (!b || candidate.length === 0 || reference.length === 0) {
        const decided = withChangePoints(
          cellState({ metrics: [], failedThresholds, incomplete, loadNotTaken }),
          changePoints,
        );
        cells.push({
          ...base,
          ...decided,
          regression: decided.state === 'regression',
          metrics: [],
        });
        gateCells.push({
          state: decided.state,
          hasBaseline: !!b && reference.length > 0,
          candidateRuns: candidate.length,
        });
        continue;
      }
      const baselineGroup = { label: 'baseline', summaries: reference };
      const candidateGroup = { label: 'candidate', summaries: candidate };
      const cmp = compareRunGroups(baselineGroup, candidateGroup);
      const metrics = cmp.metrics.map((m) => {
        const suspected = isSuspectedWorse(m);
        const def = runMetric(m.def.key);
        return {
          key: m.def.key,
          label: m.def.label,
          unit: m.def.unit,
          verdict: m.verdict,
          suspected,
          primary: m.primary,
          baselineMedian: m.baseline.median,
          candidateMedian: m.candidate.median,
          changePercent: m.changePercent
            ? {
                estimate: m.changePercent.estimate,
                lower: m.changePercent.lower,
                upper: m.changePercent.upper,
              }
            : null,
          confidence: m.achievedConfidence ?? m.confidence,
          pValue: m.pValue,
          reason: m.reason,
          // what would settle a suspicion: repeats per side at the spread seen so far
          repeatsNeeded:
            suspected && def ? runMetricRepeatsNeeded(baselineGroup, candidateGroup, def) : null,
        };
      });
      const decided = withChangePoints(
        cellState({ metrics, failedThresholds, incomplete, loadNotTaken }),
        changePoints,
      );
      cells.push({ ...base, ...decided, regression: decided.state === 'regression', metrics });
      gateCells.push({ state: decided.state, hasBaseline: true, candidateRuns: candidate.length });
    }
  }
  const outcome: ScheduleOutcome = gateOutcome(gateCells);
  const evidence = new Set(
    cells.flatMap((c) => (c.state === 'regression' ? (c.evidence ?? []) : [])),
  );
  const decidedBy =
    outcome !== 'regression'
      ? null
      : evidence.has('baseline') && evidence.has('change-point')
        ? 'both'
        : evidence.has('change-point')
          ? 'change-point'
          : 'baseline';
  // Settle a suspicion, or a firing too small or too crashed to judge against a baseline that can
  // be judged against, once: every cell gets the schedule's number of repeats, and the firing is
  // decided again when they ended. Deciding after a fixed, pre-set number of extra repeats (never
  // "until significant") keeps the error rate of the one test that decides.
  const settleTo = Math.min(schedule.settleUpToRepeats ?? 0, MAX_REPEATS);
  const moreRunsMayDecide =
    outcome === 'suspected-regression' ||
    (outcome === 'incomplete' &&
      cells.some((c) => c.state === 'incomplete' && c.baselineRuns >= MIN_RUNS_PER_SIDE));
  if (moreRunsMayDecide && settleTo > e.repeats) {
    const extended = await extendExperiment(
      { db, queue: null },
      { teamId: e.teamId, experimentId: e.id, addRepeats: settleTo - e.repeats },
    ).catch(() => null);
    if (extended) return null;
  }
  const payload: NotificationPayload = {
    event:
      outcome === 'regression'
        ? 'schedule.regression'
        : outcome === 'suspected-regression'
          ? 'schedule.suspected-regression'
          : 'schedule.finished',
    outcome,
    schedule: { id: schedule.id, name: schedule.name },
    experiment: { id: e.id, name: e.name, path: `/experiments/${e.id}` },
    target: e.target,
    baseline: schedule.baselineName,
    repeats: e.repeats,
    decidedBy,
    cells,
    decidedAt: now.toISOString(),
  };
  const send =
    schedule.webhookUrlSealed !== null &&
    (outcome === 'regression' ||
      outcome === 'suspected-regression' ||
      // a firing that could not be judged (too few or crashed runs) is news, never a quiet pass
      outcome === 'incomplete' ||
      schedule.notifyOn === 'always');
  const created = await db.scheduleNotification.createMany({
    data: [
      {
        scheduleId: schedule.id,
        experimentId: e.id,
        outcome,
        payload: toJson.notificationPayload(payload),
        status: send ? 'pending' : 'not_needed',
        nextAttemptAt: send ? now : null,
      },
    ],
    skipDuplicates: true,
  });
  return created.count === 1 ? outcome : null;
}

/**
 * How the two kinds of evidence combine in a cell: the baseline comparison decides its state; a
 * regression change point of the cell's history first seen at this firing makes the cell a
 * regression whatever that state was (the history has at least three firings on each side of the
 * change, so it stands on its own where the baseline is missing, stale or could not be judged).
 * An improvement change point is reported and changes nothing. `evidence` names what says the
 * cell regressed.
 */
function withChangePoints(
  state: CellState,
  changePoints: readonly ChangePoint[],
): { state: CellState; evidence: Array<'baseline' | 'change-point'> } {
  const fromHistory = changePoints.some((c) => c.kind === 'regression');
  const evidence: Array<'baseline' | 'change-point'> = [];
  if (state === 'regression') evidence.push('baseline');
  if (fromHistory) evidence.push('change-point');
  return { state: fromHistory ? 'regression' : state, evidence };
}

/** A change point as the webhook's JSON carries it (dates as ISO strings). */
function changePointPayload(c: ChangePoint) {
  const firing = (f: ChangePoint['before']) => ({
    ...f,
    createdAt: f.createdAt.toISOString(),
  });
  return { ...c, before: firing(c.before), after: firing(c.after) };
}

/**
 * Scheduled experiments that ended in the last week without a decided outcome (the process that
 * ended the last run died before deciding): the lifecycle sweeper decides them.
 */
export async function decideOverdueScheduleOutcomes(
  db: Db,
  opts: OverdueOptions & { now?: Date } = {},
): Promise<string[]> {
  const now = opts.now ?? new Date();
  const since = new Date(now.getTime() - 7 * 86_400_000);
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT e.id FROM "Experiment" e
     WHERE e."scheduleId" IS NOT NULL AND e."finishedAt" >= ${since}
       AND NOT EXISTS (SELECT 1 FROM "ScheduleNotification" n WHERE n."experimentId" = e.id)
     ORDER BY random() LIMIT ${opts.limit ?? 20}`;
  return eachOverdue(rows, opts, async (id) => (await decideScheduleOutcome(db, id, now)) !== null);
}
