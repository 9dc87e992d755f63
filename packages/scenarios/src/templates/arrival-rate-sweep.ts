import { z } from 'zod';
import { LIMITS } from '../limits';
import { arrivalVUs, durationMs, maxVUsRule, ratePerSec } from '../common-schemas';
import { whenNumbers } from '../check-when';
import { GRACEFUL_STOP, ms, sec, type ProfilePoint, type TemplatePlan } from './template-plan';
import { checkTotalDuration } from './duration-check';

/**
 * Steps of increasing arrival rate (start, start + step, ...) held for stepDurationMs each, to
 * find the rate at which latency or errors break. One ramping-arrival-rate scenario, so VUs are
 * shared between steps and the step is recoverable from the time of a sample.
 */
export const ArrivalRateSweepParamsSchema = z
  .strictObject({
    startRatePerSec: ratePerSec(),
    stepRatePerSec: ratePerSec(),
    steps: z
      .number()
      .int('must be a whole number')
      .min(2, 'must be at least 2')
      .max(LIMITS.maxSweepSteps, `must be at most ${LIMITS.maxSweepSteps}`),
    stepDurationMs: durationMs({ min: 1000 }),
    /** time to move from one rate to the next; 0 jumps at once */
    stepRampMs: durationMs().default(0),
    ...arrivalVUs(),
  })
  .refine(...maxVUsRule)
  .refine((p) => p.startRatePerSec + (p.steps - 1) * p.stepRatePerSec <= LIMITS.maxRatePerSec, {
    message: `the last step's rate (startRatePerSec + (steps - 1) x stepRatePerSec) must be at most ${LIMITS.maxRatePerSec} requests per second`,
    path: ['stepRatePerSec'],
    when: whenNumbers('startRatePerSec', 'stepRatePerSec', 'steps'),
  })
  .superRefine((p, ctx) => checkTotalDuration(sweepTotalMs(p), ctx, ['steps']));

export type ArrivalRateSweepParams = z.infer<typeof ArrivalRateSweepParamsSchema>;

function sweepTotalMs(p: ArrivalRateSweepParams): number {
  return p.steps * p.stepDurationMs + (p.steps - 1) * p.stepRampMs;
}

export function sweepRates(p: ArrivalRateSweepParams): number[] {
  return Array.from({ length: p.steps }, (_, i) => p.startRatePerSec + i * p.stepRatePerSec);
}

/** One step of a sweep and the whole seconds of a run that belong to it. */
export interface SweepStepWindow {
  index: number;
  ratePerSec: number;
  /** elapsed-second window [fromSec, toSec) of the run's per-second rows */
  fromSec: number;
  toSec: number;
  /** true when the step was too short to leave out the seconds it shares with a ramp or a neighbour */
  includesEdges: boolean;
}

/**
 * The per-second rows that belong to each step's hold. A run's second s covers [s, s + 1) from
 * the unix second k6 started in, and the load starts a fraction of a second into second 0, so a
 * hold from a to b seconds covers [f + a, f + b) with 0 <= f < 1: the seconds ceil(a) + 1 ..
 * floor(b) - 1 lie inside it whatever f is. A step too short for that takes its rounded window
 * and says so.
 */
export function sweepStepWindows(p: ArrivalRateSweepParams): SweepStepWindow[] {
  return sweepRates(p).map((ratePerSec, index) => {
    const a = (index * (p.stepDurationMs + p.stepRampMs)) / 1000;
    const b = a + p.stepDurationMs / 1000;
    const inner = { fromSec: Math.ceil(a) + 1, toSec: Math.floor(b) };
    if (inner.toSec > inner.fromSec) return { index, ratePerSec, ...inner, includesEdges: false };
    return {
      index,
      ratePerSec,
      fromSec: Math.round(a),
      toSec: Math.max(Math.round(a) + 1, Math.round(b)),
      includesEdges: true,
    };
  });
}

export function planArrivalRateSweep(p: ArrivalRateSweepParams): TemplatePlan {
  const rates = sweepRates(p);
  const stages: Array<{ duration: string; target: number }> = [];
  const profile: ProfilePoint[] = [];
  let t = 0;
  rates.forEach((rate, i) => {
    if (i > 0) {
      // k6 accepts a 0 s stage as an instant jump.
      stages.push({ duration: ms(p.stepRampMs), target: rate });
      t += p.stepRampMs;
    }
    profile.push({ tSec: sec(t), rate });
    stages.push({ duration: ms(p.stepDurationMs), target: rate });
    t += p.stepDurationMs;
    profile.push({ tSec: sec(t), rate });
  });
  const maxVUs = p.maxVUs ?? p.preAllocatedVUs;
  return {
    scenarios: {
      'arrival-rate-sweep': {
        executor: 'ramping-arrival-rate',
        startRate: p.startRatePerSec,
        timeUnit: '1s',
        stages,
        preAllocatedVUs: p.preAllocatedVUs,
        maxVUs,
        gracefulStop: GRACEFUL_STOP,
      },
    },
    estimatedDurationMs: t,
    profile,
    maxVUs,
    closedModel: false,
  };
}
