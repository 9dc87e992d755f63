import { parseRun, toJson, type Db, type NotificationPayload } from '@poolbench/db';
import { MEASURED_RUN_STATUSES } from '@poolbench/scenarios';
import { compareRunGroups, type RunSummary } from '@poolbench/stats';

export type ScheduleOutcome = NotificationPayload['outcome'];

/**
 * A scheduled experiment's outcome against its schedule's baseline, decided once when its last
 * run ended and stored as a ScheduleNotification (unique per experiment, so the run that ended it,
 * the sweeper and a second worker cannot decide it twice). Each cell (pool config × scenario) is
 * compared with the baseline of that name for the target and the cell's scenario through
 * `compareRunGroups`: the test the compare view and `poolbench run --baseline` use (one value per
 * measured run, Mann-Whitney U, Hodges-Lehmann interval, practical floor, p adjusted across the
 * tested metrics). A regression is a tested metric whose verdict is `worse`; inconclusive is not.
 *
 * The notification is `pending` (a worker delivers it) when the schedule has a webhook and the
 * outcome is a regression, or on every outcome with notifyOn = always; `not_needed` otherwise.
 * Returns the outcome, or null when there is nothing to decide (not scheduled, runs still going,
 * already decided).
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
      finishedAt: true,
      target: { select: { id: true, name: true } },
      schedule: {
        select: {
          id: true,
          name: true,
          baselineName: true,
          webhookUrlSealed: true,
          notifyOn: true,
        },
      },
      notification: { select: { id: true } },
      poolConfigs: {
        orderBy: { position: 'asc' },
        select: { poolConfig: { select: { id: true, name: true } } },
      },
      scenarios: {
        orderBy: { position: 'asc' },
        select: { scenario: { select: { id: true, name: true } } },
      },
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
        select: { id: true, poolConfigId: true, scenarioId: true, summary: true },
        orderBy: [{ repeatIndex: 'asc' }, { id: 'asc' }],
      })
      .then((rows) =>
        rows.map(parseRun).flatMap((r) => (r.summary ? [{ ...r, summary: r.summary }] : [])),
      );
  // the firing's own runs in one read; each baseline (one per scenario) in one more
  const own = await measured({ experimentId: e.id });

  const baselines = schedule.baselineName
    ? await db.baseline.findMany({
        where: { teamId: e.teamId, targetId: e.targetId, name: schedule.baselineName },
        select: { scenarioId: true, runId: true, experimentId: true, poolConfigId: true },
      })
    : [];
  const cells: NotificationPayload['cells'] = [];
  let missingBaseline = !schedule.baselineName;
  let incomplete = false;
  for (const { poolConfig } of e.poolConfigs) {
    for (const { scenario } of e.scenarios) {
      const candidate = own
        .filter((r) => r.poolConfigId === poolConfig.id && r.scenarioId === scenario.id)
        .map((r) => r.summary);
      const b = baselines.find((x) => x.scenarioId === scenario.id);
      let reference: RunSummary[] = [];
      if (b?.runId) reference = (await measured({ id: b.runId })).map((r) => r.summary);
      else if (b?.experimentId && b.poolConfigId)
        reference = (
          await measured({
            experimentId: b.experimentId,
            poolConfigId: b.poolConfigId,
            scenarioId: b.scenarioId,
          })
        ).map((r) => r.summary);
      if (!b) missingBaseline = true;
      if (candidate.length === 0 || (b && reference.length === 0)) incomplete = true;
      const base = {
        poolConfig: poolConfig.name,
        scenario: scenario.name,
        baselineRuns: reference.length,
        candidateRuns: candidate.length,
      };
      if (!b || candidate.length === 0 || reference.length === 0) {
        cells.push({ ...base, regression: false, metrics: [] });
        continue;
      }
      const cmp = compareRunGroups(
        { label: 'baseline', summaries: reference },
        { label: 'candidate', summaries: candidate },
      );
      const metrics = cmp.metrics.map((m) => ({
        key: m.def.key,
        label: m.def.label,
        unit: m.def.unit,
        verdict: m.verdict,
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
      }));
      cells.push({ ...base, regression: metrics.some((m) => m.verdict === 'worse'), metrics });
    }
  }
  // the same order of precedence as compareWithBaseline (the CI gate)
  const outcome: ScheduleOutcome = cells.some((c) => c.regression)
    ? 'regression'
    : missingBaseline
      ? 'no-baseline'
      : incomplete
        ? 'incomplete'
        : 'pass';
  const payload: NotificationPayload = {
    event: outcome === 'regression' ? 'schedule.regression' : 'schedule.finished',
    outcome,
    schedule: { id: schedule.id, name: schedule.name },
    experiment: { id: e.id, name: e.name, path: `/experiments/${e.id}` },
    target: e.target,
    baseline: schedule.baselineName,
    cells,
    decidedAt: now.toISOString(),
  };
  const send =
    schedule.webhookUrlSealed !== null &&
    (outcome === 'regression' || schedule.notifyOn === 'always');
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
 * Scheduled experiments that ended in the last week without a decided outcome (the process that
 * ended the last run died before deciding): the lifecycle sweeper decides them.
 */
export async function decideOverdueScheduleOutcomes(
  db: Db,
  opts: { limit?: number; now?: Date } = {},
): Promise<string[]> {
  const now = opts.now ?? new Date();
  const rows = await db.experiment.findMany({
    where: {
      scheduleId: { not: null },
      finishedAt: { not: null, gte: new Date(now.getTime() - 7 * 86_400_000) },
      notification: null,
    },
    select: { id: true },
    take: opts.limit ?? 20,
  });
  const decided: string[] = [];
  for (const r of rows)
    if ((await decideScheduleOutcome(db, r.id, now)) !== null) decided.push(r.id);
  return decided;
}
