import { z } from 'zod';
import { LIMITS } from './limits';
import { whenNumbers } from './check-when';

export const durationMs = (opts: { min?: number; max?: number } = {}) =>
  z
    .number()
    .int('must be a whole number of milliseconds')
    .min(opts.min ?? 0, `must be at least ${opts.min ?? 0} ms`)
    .max(
      opts.max ?? LIMITS.maxDurationMs,
      `must be at most ${opts.max ?? LIMITS.maxDurationMs} ms`,
    );

export const vus = (min = 1) =>
  z
    .number()
    .int('must be a whole number of VUs')
    .min(min, `must be at least ${min}`)
    .max(LIMITS.maxVUs, `must be at most ${LIMITS.maxVUs} VUs`);

export const ratePerSec = () =>
  z
    .number()
    .int('must be a whole number of requests per second')
    .min(1, 'must be at least 1 request per second')
    .max(LIMITS.maxRatePerSec, `must be at most ${LIMITS.maxRatePerSec} requests per second`);

export const thinkTimeMs = () =>
  durationMs({ max: LIMITS.maxThinkTimeMs })
    .default(0)
    .describe('pause after each request, closed model only');

/**
 * An open model's VUs: k6 starts `preAllocatedVUs` and may add up to `maxVUs` when they are all
 * busy. Spread into an arrival-rate template's params, then refine with `maxVUsRule`.
 */
export const arrivalVUs = () => ({ preAllocatedVUs: vus(), maxVUs: vus().optional() });

/** `maxVUs`, when given, is never below `preAllocatedVUs`: the refinement of `arrivalVUs`. */
export const maxVUsRule: [
  (p: { preAllocatedVUs: number; maxVUs?: number }) => boolean,
  z.core.$ZodCustomParams,
] = [
  (p) => p.maxVUs === undefined || p.maxVUs >= p.preAllocatedVUs,
  {
    message: 'must be at least preAllocatedVUs',
    path: ['maxVUs'],
    when: whenNumbers('preAllocatedVUs'),
  },
];
