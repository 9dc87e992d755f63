import { z } from 'zod';
import { IdSchema } from './ids';

const whole = (what: string) =>
  z.number({ error: `is required (${what})` }).int('must be a whole number');

/**
 * What the pool-size advisor is asked (docs/advisor.md), the same for the UI, tRPC, REST and the
 * CLI. The server checks the rest (the range against the knob's limits and the target's runtime,
 * the budget against the team's fleet limits, an SLO needing a constant-arrival-rate scenario).
 */
export const AdvisorInputSchema = z.object({
  targetId: IdSchema,
  scenarioId: IdSchema,
  /** the config whose max pool size is searched; everything else of it stays as it is */
  basePoolConfigId: IdSchema,
  knob: z.enum(['maxConns']).default('maxConns'),
  min: whole('the smallest setting').min(1, 'must be at least 1'),
  max: whole('the largest setting').min(2, 'must be at least 2'),
  objective: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('slo'),
      p99Ms: z
        .number({ error: 'is required (ms)' })
        .positive('must be above 0')
        .max(600_000, 'must be at most 600000 ms'),
      /** a fraction: 0.001 is 0.1 % */
      errorRate: z
        .number({ error: 'is required (a fraction, 0.001 = 0.1 %)' })
        .min(0, 'must be at least 0')
        .max(1, 'must be at most 1 (a fraction)'),
    }),
    z.object({ kind: z.literal('max-throughput') }),
  ]),
  budgetRuns: whole('runs').min(4, 'must be at least 4').max(200, 'must be at most 200'),
  repeatsPerSetting: whole('runs per setting')
    .min(2, 'must be at least 2')
    .max(10, 'must be at most 10')
    .default(3),
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(120, 'must be at most 120 characters')
    .optional(),
});
export type AdvisorInput = z.output<typeof AdvisorInputSchema>;
