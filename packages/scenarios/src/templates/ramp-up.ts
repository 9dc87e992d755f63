import { z } from 'zod';
import { LIMITS } from '../limits';
import { durationMs, thinkTimeMs, vus } from '../common-schemas';
import { rampingVus, type TemplatePlan } from './template-plan';
import { checkTotalDuration } from './duration-check';

/** VUs follow linear stages, e.g. 0 -> 150 over minutes (seed 000 TC2, seed 001). */
export const RampUpParamsSchema = z
  .strictObject({
    startVUs: vus(0).default(0),
    stages: z
      .array(z.strictObject({ durationMs: durationMs({ min: 0 }), targetVUs: vus(0) }))
      .min(1, 'needs at least one stage')
      .max(LIMITS.maxStages, `may hold at most ${LIMITS.maxStages} stages`),
    thinkTimeMs: thinkTimeMs(),
  })
  .superRefine((p, ctx) => {
    checkTotalDuration(
      p.stages.reduce((s, st) => s + st.durationMs, 0),
      ctx,
      ['stages'],
    );
    if (p.startVUs === 0 && p.stages.every((s) => s.targetVUs === 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['stages'],
        message: 'at least one stage must target more than 0 VUs',
      });
    }
  });

export type RampUpParams = z.infer<typeof RampUpParamsSchema>;

export function planRampUp(p: RampUpParams): TemplatePlan {
  return rampingVus(
    'ramp-up',
    p.startVUs,
    p.stages.map((s) => ({ durationMs: s.durationMs, target: s.targetVUs })),
  );
}
