import type { RunSummary } from './run-summary';

/**
 * Largest share of the planned iterations k6 may drop (planned = iterations + dropped) for a run
 * to count as having offered its load. The advisor's SLO check and `runValidity` both use it.
 */
export const MAX_DROPPED_SHARE = 0.01;
/** Smallest share of the rate an arrival-rate scenario asks for that its run must achieve, likewise. */
export const MIN_RATE_SHARE = 0.95;
/**
 * Largest share of a run's requests that may reach k6's output after their second was written
 * (in no second, total or percentile) for the run's numbers to stand for its load.
 */
export const MAX_LATE_REQUEST_SHARE = 0.01;

/** More than `MAX_DROPPED_SHARE` of the planned iterations dropped: the one rule of both. */
export const droppedBeyondShare = (dropped: number, planned: number): boolean =>
  dropped > MAX_DROPPED_SHARE * planned;

/** The insight codes that can make a run invalid. */
export const VALIDITY_CODES = ['load-not-offered', 'samples-late'] as const;
export type ValidityCode = (typeof VALIDITY_CODES)[number];

export interface ValidityReason {
  /** the run insight that shows it, with the fix */
  code: ValidityCode;
  /** a short phrase with the number: "load not offered (3.2 % of iterations dropped)" */
  message: string;
}

/**
 * Whether a measured run's numbers describe the load that was asked for. An invalid run is left
 * out of every verdict (compare view, CI gate, schedules, Trends, REST) and shown with its reasons.
 */
export interface RunValidity {
  valid: boolean;
  reasons: ValidityReason[];
}

/** A measured run left out of verdicts, with why. */
export interface InvalidRun {
  runId: string;
  reasons: ValidityReason[];
}

/** Invalid runs named at most this many at a time in a reason; the rest are counted. */
const NAMED_INVALID_RUNS = 3;

/**
 * "run abc: load not offered (3.2 % of iterations dropped); run def: …": invalid runs in words,
 * the first few by name.
 */
export function invalidRunsText(invalid: readonly InvalidRun[]): string {
  const named = invalid
    .slice(0, NAMED_INVALID_RUNS)
    .map((r) => `run ${r.runId}: ${r.reasons.map((x) => x.message).join(', ')}`);
  const more = invalid.length - NAMED_INVALID_RUNS;
  return [...named, ...(more > 0 ? [`${more} more`] : [])].join('; ');
}

export interface RunValidityInput {
  summary: RunSummary | null;
  /** the scenario's load model: open (arrival rate) or closed (VUs) */
  model: 'open' | 'closed' | null;
  /**
   * arrival-rate scenarios: the iterations their rate asks for over their planned duration (the
   * integral of the rate profile); null for closed models, scripts, or when unknown
   */
  plannedIterations?: number | null;
}

/** a share as a percentage with 3 significant digits: 1.04 %, 3.2 %, 1 % */
export const sharePercent = (v: number) => `${Number((100 * v).toPrecision(3))} %`;

/**
 * The run is invalid when it did not offer the load asked for, or when its totals miss part of
 * what it sent:
 * - k6 dropped more than `MAX_DROPPED_SHARE` of the planned iterations (an arrival-rate executor
 *   with every VU busy, or a starved generator): the requests not sent are the ones that would
 *   have met the slowest moments, so latency describes a lighter load;
 * - an arrival-rate run completed fewer than `MIN_RATE_SHARE` of the iterations its rate asks for
 *   over its planned duration (achieved rate below 95 % of the target: iterations k6 neither ran
 *   nor counted as dropped, e.g. cut off at the end, or a run stopped early);
 * - more than `MAX_LATE_REQUEST_SHARE` of its requests reached k6's output after their second was
 *   written: a generator starved of CPU, whose late samples are in no total or percentile.
 * A run without a summary measured nothing, and is not judged here.
 */
export function runValidity(input: RunValidityInput): RunValidity {
  const reasons: ValidityReason[] = [];
  const s = input.summary;
  if (!s) return { valid: true, reasons };

  const planned = s.iterations + s.droppedIterations;
  if (planned > 0 && droppedBeyondShare(s.droppedIterations, planned))
    reasons.push({
      code: 'load-not-offered',
      message: `load not offered (${sharePercent(s.droppedIterations / planned)} of iterations dropped)`,
    });
  const asked = input.plannedIterations ?? null;
  // dropped iterations already say it; this catches the ones k6 neither ran nor counted
  if (
    reasons.length === 0 &&
    input.model === 'open' &&
    asked !== null &&
    asked > 0 &&
    s.iterations < MIN_RATE_SHARE * asked
  )
    reasons.push({
      code: 'load-not-offered',
      message: `load not offered (${sharePercent(s.iterations / asked)} of the target rate achieved: ${s.iterations} of ${Math.round(asked)} iterations)`,
    });

  const late = s.delivery?.lateRequests ?? 0;
  const sent = s.requests + late;
  if (late > 0 && late > MAX_LATE_REQUEST_SHARE * sent)
    reasons.push({
      code: 'samples-late',
      message: `samples lost (${sharePercent(late / sent)} of requests reached the output late)`,
    });

  return { valid: reasons.length === 0, reasons };
}
