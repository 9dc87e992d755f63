import { z } from 'zod';
import { durationMs, thinkTimeMs, vus } from '../common-schemas';
import { GRACEFUL_STOP, levelProfile, ms, type TemplatePlan } from './template-plan';

/** Constant VUs for a long time, to watch CPU and memory drift (seed 000 TC4). */
export const SustainedParamsSchema = z.strictObject({
  vus: vus(),
  durationMs: durationMs({ min: 1000 }),
  thinkTimeMs: thinkTimeMs(),
});

export type SustainedParams = z.infer<typeof SustainedParamsSchema>;

export function planSustained(p: SustainedParams): TemplatePlan {
  return {
    scenarios: {
      sustained: {
        executor: 'constant-vus',
        vus: p.vus,
        duration: ms(p.durationMs),
        gracefulStop: GRACEFUL_STOP,
      },
    },
    estimatedDurationMs: p.durationMs,
    profile: levelProfile(p.durationMs, { vus: p.vus }),
    maxVUs: p.vus,
    closedModel: true,
  };
}
