import { z } from 'zod';
import { durationMs, thinkTimeMs, vus } from '../common-schemas';
import { rampingVus, type TemplatePlan } from './template-plan';
import { checkTotalDuration } from './duration-check';

/** 0 -> N VUs almost at once from a cold target, then hold (seed 000 TC1). */
export const ColdStartBurstParamsSchema = z
  .strictObject({
    vus: vus(),
    rampUpMs: durationMs().default(1000),
    holdMs: durationMs({ min: 1000 }),
    thinkTimeMs: thinkTimeMs(),
  })
  .superRefine((p, ctx) => checkTotalDuration(p.rampUpMs + p.holdMs, ctx, ['holdMs']));

export type ColdStartBurstParams = z.infer<typeof ColdStartBurstParamsSchema>;

export function planColdStartBurst(p: ColdStartBurstParams): TemplatePlan {
  return rampingVus('cold-start-burst', 0, [
    { durationMs: p.rampUpMs, target: p.vus },
    { durationMs: p.holdMs, target: p.vus },
  ]);
}
