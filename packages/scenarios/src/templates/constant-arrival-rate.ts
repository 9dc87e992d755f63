import { z } from 'zod';
import { arrivalVUs, durationMs, maxVUsRule, ratePerSec } from '../common-schemas';
import { GRACEFUL_STOP, levelProfile, ms, type TemplatePlan } from './template-plan';

/**
 * Open model: a fixed request rate whatever the latency, as Vegeta does in seed 002. When all
 * maxVUs are busy k6 drops iterations and counts them in dropped_iterations.
 */
export const ConstantArrivalRateParamsSchema = z
  .strictObject({
    ratePerSec: ratePerSec(),
    durationMs: durationMs({ min: 1000 }),
    ...arrivalVUs(),
  })
  .refine(...maxVUsRule);

export type ConstantArrivalRateParams = z.infer<typeof ConstantArrivalRateParamsSchema>;

export function planConstantArrivalRate(p: ConstantArrivalRateParams): TemplatePlan {
  const maxVUs = p.maxVUs ?? p.preAllocatedVUs;
  return {
    scenarios: {
      'constant-arrival-rate': {
        executor: 'constant-arrival-rate',
        rate: p.ratePerSec,
        timeUnit: '1s',
        duration: ms(p.durationMs),
        preAllocatedVUs: p.preAllocatedVUs,
        maxVUs,
        gracefulStop: GRACEFUL_STOP,
      },
    },
    estimatedDurationMs: p.durationMs,
    profile: levelProfile(p.durationMs, { rate: p.ratePerSec }),
    maxVUs,
    closedModel: false,
  };
}
