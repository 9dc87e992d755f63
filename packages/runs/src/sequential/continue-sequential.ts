import { parseRun, toJson, type Db, type SequentialState } from '@poolbench/db';
import { eachOverdue, type OverdueOptions } from '../overdue';
import { isMeasuredRunStatus, TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import {
  claimedChange,
  hypothesisCompareOptions,
  nextSequentialStep,
  runMetric,
  runMetricOptions,
  type SequentialMetricDecision,
  type SequentialMetricSamples,
  type SequentialStep,
} from '@poolbench/stats';
import { extendExperiment } from '../extend-experiment';
import { RunsRefusedError } from '../runs-refused';
import { hypothesisData, type CellValue } from '../hypotheses/decide-hypotheses';

/** What an "until decided" experiment decides on when it names no metrics. */
export const DEFAULT_SEQUENTIAL_METRICS = ['p95Ms', 'rps', 'errorRate'] as const;

export type SequentialContinuation =
  | { kind: 'not-sequential' }
  | { kind: 'not-finished' }
  | { kind: 'stopped'; state: SequentialState }
  /** its next round was refused for now (the queue is full): the sweeper asks again */
  | { kind: 'waiting'; state: SequentialState }
  | { kind: 'extended'; state: SequentialState; addRepeats: number; runIds: string[] };

/**
 * An "until decided, at most N repeats per side" experiment: once all its runs ended, the
 * sequential rule of @poolbench/stats (`nextSequentialStep`, alpha spent over the looks, so
 * looking after every round does not inflate false positives) decides
 * - with hypotheses: each hypothesis, its two cells compared with its band as the floor, at its
 *   own alpha (like the fixed design, which does not adjust across claims); the experiment grows
 *   until every hypothesis is decided; decideExperimentHypotheses then takes these decisions;
 * - without (two pool configs, one scenario): the second config against the first on each metric.
 * It stops when everything is decided or the budget is spent; otherwise the experiment grows by
 * the rounds the rule asks for (queued; the lifecycle sweeper enqueues them), through
 * extendExperiment, so they carry the experiment's run order on (counterbalanced: the first
 * config of the next round is the one that went second in the last). The answer is stored on the
 * experiment.
 */
export async function continueSequential(
  db: Db,
  experimentId: string,
): Promise<SequentialContinuation> {
  const e = await db.experiment.findUnique({
    where: { id: experimentId },
    select: {
      id: true,
      teamId: true,
      repeats: true,
      untilDecidedMaxRepeats: true,
      sequentialMetrics: true,
      poolConfigs: { select: { poolConfigId: true }, orderBy: { position: 'asc' } },
      hypotheses: { orderBy: { position: 'asc' } },
      runs: {
        select: {
          id: true,
          status: true,
          poolConfigId: true,
          repeatIndex: true,
          summary: true,
        },
        orderBy: { sequence: 'asc' },
      },
    },
  });
  if (!e?.untilDecidedMaxRepeats) return { kind: 'not-sequential' };
  if (e.hypotheses.length === 0 && e.poolConfigs.length !== 2) return { kind: 'not-sequential' };
  if (e.runs.some((r) => !TERMINAL_RUN_STATUSES.includes(r.status)))
    return { kind: 'not-finished' };
  const byRepeat = (xs: CellValue[]) =>
    Array.from({ length: e.repeats }, (_, i) => xs.find((x) => x.repeatIndex === i)?.value ?? null);
  let metrics: Array<SequentialMetricSamples & { hypothesis?: number }>;
  if (e.hypotheses.length) {
    metrics = (await hypothesisData(db, e.id, e.hypotheses))
      .filter((d) => d.known)
      .map((d) => ({
        name: d.h.statement,
        hypothesis: d.h.position,
        baseline: byRepeat(d.base),
        candidate: byRepeat(d.cand),
        options: hypothesisCompareOptions(d.rule),
        claim: claimedChange(d.rule),
      }));
  } else {
    const [base, candidate] = e.poolConfigs.map((p) => p.poolConfigId) as [string, string];
    const runs = e.runs.map(parseRun);
    const side = (poolConfigId: string) =>
      Array.from({ length: e.repeats }, (_, i) => {
        const r = runs.find((x) => x.poolConfigId === poolConfigId && x.repeatIndex === i);
        return r && isMeasuredRunStatus(r.status) ? r.summary : null;
      });
    const [baseRuns, candidateRuns] = [side(base), side(candidate)];
    const keys = e.sequentialMetrics.length ? e.sequentialMetrics : [...DEFAULT_SEQUENTIAL_METRICS];
    metrics = keys.flatMap((key) => {
      const def = runMetric(key);
      if (!def) return [];
      return [
        {
          name: def.key,
          baseline: baseRuns.map((s) => (s ? def.value(s) : null)),
          candidate: candidateRuns.map((s) => (s ? def.value(s) : null)),
          options: runMetricOptions(def),
        },
      ];
    });
  }
  if (metrics.length === 0) return { kind: 'not-sequential' };
  const maxPairs = e.untilDecidedMaxRepeats;
  const design = { maxPairs: Math.max(maxPairs, e.repeats) };
  // Hypotheses are separate pre-registered claims, each tested at its own alpha as the fixed
  // design tests them (no adjustment across claims); a comparison's metrics share one alpha.
  const step = e.hypotheses.length
    ? combinedSteps(metrics.map((m) => nextSequentialStep([m], design)))
    : nextSequentialStep(metrics, design);
  const state: SequentialState = {
    pairs: step.pairs,
    maxPairs,
    stop: step.stop,
    decidedAt: step.stop ? new Date().toISOString() : null,
    metrics: step.perMetric.map((m, i) => ({
      name: m.name,
      ...(metrics[i]!.hypothesis !== undefined ? { hypothesis: metrics[i]!.hypothesis } : {}),
      p: decidedP(m),
      ...(m.look ? { lookPairs: m.look.pairs } : {}),
      decision: m.decision,
      reason: m.reason,
      change: m.change
        ? { estimate: m.change.estimate, lower: m.change.lower, upper: m.change.upper }
        : null,
      changeUnit: m.changeUnit,
    })),
  };
  await db.experiment.update({
    where: { id: e.id },
    data: { sequentialState: toJson.sequentialState(state) },
  });
  const addRepeats = Math.min(step.nextPairs, maxPairs - e.repeats);
  if (step.stop || addRepeats < 1) return { kind: 'stopped', state };
  try {
    const extended = await extendExperiment(
      { db, queue: null },
      { teamId: e.teamId, experimentId: e.id, addRepeats },
    );
    return { kind: 'extended', state, addRepeats, runIds: extended.runIds };
  } catch (err) {
    if (!(err instanceof RunsRefusedError)) {
      // a race another process won (two runs ended together, or the sweeper asked as well): it
      // grew the experiment first, under the experiment's lock, and its runs are to go now
      const toGo = await db.run.count({
        where: { experimentId: e.id, status: { notIn: [...TERMINAL_RUN_STATUSES] } },
      });
      if (toGo > 0) return { kind: 'not-finished' };
      throw err;
    }
    // the team's policy or the fleet's limits refused the round
    const why = `the next round was refused: ${err.message}`;
    // a limit that lifts by itself (the queue drains): the rule waits, saying why, and the
    // sweeper asks again; one that needs an admin: the rule stops there, each open metric saying
    // why (its hypotheses are decided as they stand; Add repeats carries on once it is lifted)
    const next: SequentialState = err.transient
      ? { ...state, waitingBecause: why }
      : {
          ...state,
          stop: true,
          decidedAt: new Date().toISOString(),
          stoppedBecause: why,
          metrics: state.metrics.map((m) =>
            m.decision === 'continue' ? { ...m, reason: `${m.reason}; stopped: ${why}` } : m,
          ),
        };
    // written only if the experiment is as this look saw it (finished, with these repeats)
    await db.experiment.updateMany({
      where: { id: e.id, repeats: e.repeats, finishedAt: { not: null } },
      data: { sequentialState: toJson.sequentialState(next) },
    });
    return err.transient ? { kind: 'waiting', state: next } : { kind: 'stopped', state: next };
  }
}

/**
 * "Until decided" experiments that ended without the rule's answer (the process that ended their
 * last run died before asking): asked now, by the lifecycle sweeper.
 */
export async function continueOverdueSequential(
  db: Db,
  opts: OverdueOptions = {},
): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "Experiment"
     WHERE "untilDecidedMaxRepeats" IS NOT NULL AND "finishedAt" IS NOT NULL
       AND ("sequentialState" IS NULL OR ("sequentialState"->>'stop')::boolean IS NOT TRUE)
     ORDER BY random() LIMIT ${opts.limit ?? 20}`;
  return eachOverdue(rows, opts, async (id) => {
    const next = await continueSequential(db, id);
    return next.kind === 'stopped' || next.kind === 'extended';
  });
}

/** The one-sided p of what the rule decided (of the likelier direction while it has not). */
function decidedP(m: SequentialMetricDecision): number | null {
  const look = m.look;
  if (!look) return null;
  const lowerBetter = m.direction === 'lower-is-better';
  if (m.decision === 'better') return lowerBetter ? look.pDecrease : look.pIncrease;
  if (m.decision === 'worse') return lowerBetter ? look.pIncrease : look.pDecrease;
  if (m.decision === 'no-difference-within-floor') return look.pWithinFloor;
  if (m.decision === 'short-of-claim') return look.pShortOfClaim;
  return Math.min(look.pIncrease, look.pDecrease);
}

/** Separate sequential tests as one: stop when each has stopped, grow by the least any asks for. */
function combinedSteps(steps: SequentialStep[]): SequentialStep {
  const open = steps.filter((x) => !x.stop);
  return {
    stop: open.length === 0,
    nextPairs: open.length ? Math.min(...open.map((x) => x.nextPairs)) : 0,
    pairs: Math.min(...steps.map((x) => x.pairs)),
    perMetric: steps.flatMap((x) => x.perMetric),
  };
}
