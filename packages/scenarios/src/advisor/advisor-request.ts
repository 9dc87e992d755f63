import { z } from 'zod';
import { POOL_PARAM_DEFS } from '../pool/param-defs';

/** The pool-config parameters the advisor searches. */
export const ADVISOR_KNOBS = ['maxConns'] as const;
export type AdvisorKnob = (typeof ADVISOR_KNOBS)[number];
/** The most runs one advisor may spend; the team's fleet limit may be lower. */
export const MAX_ADVISOR_BUDGET = 200;
export const DEFAULT_ADVISOR_REPEATS = 3;

const KNOB = POOL_PARAM_DEFS.maxConns;
const whole = (what: string) =>
  z.number({ error: `is required (${what})` }).int('must be a whole number');
const setting = (what: string, min: number) =>
  whole(what)
    .min(min, `must be a whole number from ${min} to ${KNOB.max}`)
    .max(KNOB.max, `must be a whole number from ${min} to ${KNOB.max}`);

/** An SLO at the scenario's arrival rate, or the highest throughput. */
export const AdvisorObjectiveSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('slo'),
    p99Ms: z
      .number({ error: 'is required (ms)' })
      .positive('must be above 0')
      .max(600_000, 'must be at most 600000 ms')
      .describe('p99 latency limit, ms'),
    errorRate: z
      .number({ error: 'is required (a fraction, 0.001 = 0.1 %)' })
      .min(0, 'must be at least 0')
      .max(1, 'must be at most 1 (a fraction)')
      .describe('error-rate limit as a fraction (0.001 = 0.1 %)'),
  }),
  z.strictObject({ kind: z.literal('max-throughput') }),
]);

/**
 * What the pool-size advisor is asked (docs/advisor.md), the one statement of its rules: the web
 * form, tRPC, REST and `launchAdvisor` all check these fields and `advisorRequestProblems`. The
 * target, pool config and scenario are named differently on each way in, so they are not here.
 */
export const ADVISOR_REQUEST_FIELDS = {
  knob: z
    .enum(ADVISOR_KNOBS, { error: `must be one of ${ADVISOR_KNOBS.join(', ')}` })
    .default('maxConns'),
  min: setting('the smallest setting', KNOB.min),
  max: setting('the largest setting', KNOB.min + 1),
  objective: AdvisorObjectiveSchema,
  budgetRuns: whole('runs')
    .min(4, 'must be at least 4')
    .max(MAX_ADVISOR_BUDGET, `must be at most ${MAX_ADVISOR_BUDGET}`),
  repeatsPerSetting: whole('runs per setting')
    .min(2, 'must be at least 2')
    .max(10, 'must be at most 10')
    .default(DEFAULT_ADVISOR_REPEATS),
};

/** The rules across the fields: a range to search, and a budget for two settings at least. */
export function advisorRequestProblems(
  v: { min: number; max: number; budgetRuns: number; repeatsPerSetting?: number },
  ctx: z.RefinementCtx,
) {
  if (v.max <= v.min)
    ctx.addIssue({ code: 'custom', path: ['max'], message: 'must be greater than min' });
  const repeats = v.repeatsPerSetting ?? DEFAULT_ADVISOR_REPEATS;
  if (v.budgetRuns < 2 * repeats)
    ctx.addIssue({
      code: 'custom',
      path: ['budgetRuns'],
      message: `must be at least ${2 * repeats} (two settings of ${repeats} runs)`,
    });
}

/** The advisor's request as `launchAdvisor` checks it, the defaults filled in. */
export const AdvisorRequestSchema = z
  .object(ADVISOR_REQUEST_FIELDS)
  .superRefine(advisorRequestProblems);
