import { z } from 'zod';
import { LIMITS } from '../limits';
import { durationMs, thinkTimeMs, vus } from '../common-schemas';
import { whenNumbers } from '../check-when';
import { levelProfile, ms, type TemplatePlan } from './template-plan';

/**
 * N requests at concurrency C, like `ab -n N -c C` (seed 004): k6 shared-iterations, one
 * request per iteration. The run ends when all N are done or maxDurationMs is reached.
 */
export const FixedRequestsParamsSchema = z
  .strictObject({
    requests: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(LIMITS.maxRequests, `must be at most ${LIMITS.maxRequests}`),
    concurrency: vus(),
    maxDurationMs: durationMs({ min: 1000 }).default(10 * 60 * 1000),
    thinkTimeMs: thinkTimeMs(),
  })
  .refine((p) => p.concurrency <= p.requests, {
    message: 'must not exceed requests (each VU needs at least one request)',
    path: ['concurrency'],
    when: whenNumbers('concurrency', 'requests'),
  });

export type FixedRequestsParams = z.infer<typeof FixedRequestsParamsSchema>;

export function planFixedRequests(p: FixedRequestsParams): TemplatePlan {
  return {
    scenarios: {
      'fixed-requests': {
        executor: 'shared-iterations',
        vus: p.concurrency,
        iterations: p.requests,
        maxDuration: ms(p.maxDurationMs),
        gracefulStop: '0s',
      },
    },
    // The real duration depends on the target's speed; the cap is the only honest bound.
    estimatedDurationMs: p.maxDurationMs,
    profile: levelProfile(p.maxDurationMs, { vus: p.concurrency }),
    maxVUs: p.concurrency,
    closedModel: true,
  };
}
