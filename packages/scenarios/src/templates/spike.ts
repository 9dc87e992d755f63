import { z } from 'zod';
import { LIMITS } from '../limits';
import { durationMs, thinkTimeMs, vus } from '../common-schemas';
import { whenNumbers } from '../check-when';
import { rampingVus, type TemplatePlan, type VuStage } from './template-plan';
import { checkTotalDuration } from './duration-check';

/**
 * A baseline of VUs with k spikes of a given height and length (seed 000 TC3; seed 003's bursts
 * of 5x baseline). Timeline: ramp to baseline, baseline, then k x (ramp up, spike, ramp down, baseline).
 */
export const SpikeParamsSchema = z
  .strictObject({
    baselineVUs: vus(0),
    spikeVUs: vus(),
    spikes: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(LIMITS.maxSpikes, `must be at most ${LIMITS.maxSpikes}`),
    rampToBaselineMs: durationMs().default(1000),
    baselineMs: durationMs({ min: 1000 }),
    spikeRampMs: durationMs().default(1000),
    spikeHoldMs: durationMs({ min: 1000 }),
    thinkTimeMs: thinkTimeMs(),
  })
  .refine((p) => p.spikeVUs > p.baselineVUs, {
    message: 'must be greater than baselineVUs',
    path: ['spikeVUs'],
    when: whenNumbers('spikeVUs', 'baselineVUs'),
  })
  .superRefine((p, ctx) => checkTotalDuration(spikeTotalMs(p), ctx, ['spikes']));

export type SpikeParams = z.infer<typeof SpikeParamsSchema>;

function spikeTotalMs(p: SpikeParams): number {
  return (
    p.rampToBaselineMs +
    p.baselineMs +
    p.spikes * (2 * p.spikeRampMs + p.spikeHoldMs + p.baselineMs)
  );
}

export function planSpike(p: SpikeParams): TemplatePlan {
  const stages: VuStage[] = [
    { durationMs: p.rampToBaselineMs, target: p.baselineVUs },
    { durationMs: p.baselineMs, target: p.baselineVUs },
  ];
  for (let i = 0; i < p.spikes; i++) {
    stages.push(
      { durationMs: p.spikeRampMs, target: p.spikeVUs },
      { durationMs: p.spikeHoldMs, target: p.spikeVUs },
      { durationMs: p.spikeRampMs, target: p.baselineVUs },
      { durationMs: p.baselineMs, target: p.baselineVUs },
    );
  }
  return rampingVus('spike', 0, stages);
}
