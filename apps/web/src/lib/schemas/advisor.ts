import { z } from 'zod';
import { ADVISOR_REQUEST_FIELDS, advisorRequestProblems } from '@poolbench/scenarios';
import { IdSchema } from './ids';

/**
 * What the pool-size advisor is asked (docs/advisor.md) from the web app: the advisor's fields and
 * their rules as @poolbench/scenarios states them for every way in, and the target, scenario and
 * pool config by id. The server checks the rest (the range against the target's runtime, the
 * budget against the team's fleet limits, an SLO needing a constant-arrival-rate scenario).
 */
export const AdvisorInputSchema = z
  .object({
    targetId: IdSchema,
    scenarioId: IdSchema,
    /** the config whose max pool size is searched; everything else of it stays as it is */
    basePoolConfigId: IdSchema,
    ...ADVISOR_REQUEST_FIELDS,
    name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(120, 'must be at most 120 characters')
      .optional(),
  })
  .superRefine(advisorRequestProblems);
export type AdvisorInput = z.output<typeof AdvisorInputSchema>;
