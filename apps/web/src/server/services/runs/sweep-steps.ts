import type { Db } from '@poolbench/db';
import { parseRun, scenarioFromColumns } from '@poolbench/db';
import { ArrivalRateSweepParamsSchema, sweepStepWindows } from '@poolbench/scenarios';
import { createHistogram, percentileMs } from '@poolbench/stats';
import { mergeStoredHistograms } from '@poolbench/stats/stored';
import { NotFoundError } from '../errors';

/** When a step counts as broken; the run page and docs/metrics.md state the same rules. */
export const BREAK_RULES = {
  /** achieved throughput below this share of the step's target rate: the target could not keep up */
  minThroughputShare: 0.95,
  /** failed requests above this share */
  maxErrorRate: 0.01,
  /** p99 more than this many times the first step's p99: the latency knee */
  maxP99Factor: 2,
} as const;

export type BreakReason = 'throughput' | 'errors' | 'latency';

export interface SweepStep {
  index: number;
  targetRatePerSec: number;
  fromSec: number;
  toSec: number;
  includesEdges: boolean;
  /** seconds of the window the run has rows for */
  seconds: number;
  requests: number;
  achievedRatePerSec: number | null;
  droppedIterations: number;
  errorRate: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  breaks: BreakReason[];
}

export interface SweepSteps {
  steps: SweepStep[];
  /** the first step that broke a rule, or null when every step held */
  breakingStep: number | null;
  /** the highest target rate of the steps before it (or of all, when none broke) */
  sustainedRatePerSec: number | null;
}

/**
 * Per-step results of an arrival-rate sweep run, from its stored seconds: each step's whole
 * seconds (ramps and boundary seconds left out, see sweepStepWindows) with exact percentiles from
 * the merged per-second histograms. `null` for runs of other templates.
 */
export async function sweepSteps(
  db: Db,
  teamId: string,
  runId: string,
): Promise<SweepSteps | null> {
  const run = await db.run.findFirst({
    where: { id: runId, teamId },
    select: { scenarioSnapshot: true },
  });
  if (!run) throw new NotFoundError('run');
  const snap = parseRun(run).scenarioSnapshot;
  if (snap.templateId !== 'arrival-rate-sweep') return null;
  const scenario = scenarioFromColumns(snap);
  const parsed = ArrivalRateSweepParamsSchema.safeParse(scenario.params);
  if (!parsed.success) return null; // a snapshot from an older template shape: nothing to split by
  const windows = sweepStepWindows(parsed.data);
  const rows = await db.runSecond.findMany({
    where: {
      runId,
      segment: 'all',
      second: { gte: windows[0]!.fromSec, lt: windows.at(-1)!.toSec },
    },
    select: {
      second: true,
      requests: true,
      failed: true,
      droppedIterations: true,
      durationHist: true,
    },
    orderBy: { second: 'asc' },
  });
  const steps: SweepStep[] = windows.map((w) => {
    const mine = rows.filter((r) => r.second >= w.fromSec && r.second < w.toSec);
    const requests = mine.reduce((a, r) => a + r.requests, 0);
    const failed = mine.reduce((a, r) => a + r.failed, 0);
    const h = mine.length
      ? mergeStoredHistograms(mine.map((r) => r.durationHist))
      : createHistogram();
    return {
      index: w.index,
      targetRatePerSec: w.ratePerSec,
      fromSec: w.fromSec,
      toSec: w.toSec,
      includesEdges: w.includesEdges,
      seconds: mine.length,
      requests,
      achievedRatePerSec: mine.length ? requests / mine.length : null,
      droppedIterations: mine.reduce((a, r) => a + r.droppedIterations, 0),
      errorRate: requests ? failed / requests : null,
      p50Ms: percentileMs(h, 50) ?? null,
      p95Ms: percentileMs(h, 95) ?? null,
      p99Ms: percentileMs(h, 99) ?? null,
      breaks: [],
    };
  });
  const firstP99 = steps.find((s) => s.p99Ms !== null)?.p99Ms ?? null;
  for (const s of steps) {
    if (s.seconds === 0) continue;
    if (
      s.achievedRatePerSec !== null &&
      s.achievedRatePerSec < BREAK_RULES.minThroughputShare * s.targetRatePerSec
    )
      s.breaks.push('throughput');
    if (s.errorRate !== null && s.errorRate > BREAK_RULES.maxErrorRate) s.breaks.push('errors');
    if (
      firstP99 !== null &&
      s.p99Ms !== null &&
      s.index > 0 &&
      s.p99Ms > BREAK_RULES.maxP99Factor * firstP99
    )
      s.breaks.push('latency');
  }
  const breaking = steps.find((s) => s.breaks.length > 0) ?? null;
  const held = steps.filter(
    (s) => s.seconds > 0 && (breaking === null || s.index < breaking.index),
  );
  return {
    steps,
    breakingStep: breaking?.index ?? null,
    sustainedRatePerSec: held.length ? held.at(-1)!.targetRatePerSec : null,
  };
}
