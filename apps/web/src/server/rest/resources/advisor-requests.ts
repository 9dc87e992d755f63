import { z } from 'zod';
import {
  ADVISOR_REQUEST_FIELDS,
  advisorRequestProblems,
  ScenarioSchema,
} from '@poolbench/scenarios';
import { IdSchema } from '~/lib/schemas/ids';
import { CiOriginFields, IdOrName, restName } from '../schemas';

/* The request body that starts the pool-size advisor (POST /advisors), which its CI service reads. */

export const StartAdvisorSchema = z
  .strictObject({
    name: restName(120).optional(),
    target: IdOrName.describe('id or exact name of a target of the team'),
    poolConfig: IdOrName.describe(
      "id or name of the target's pool config whose max pool size is searched; everything else of it stays",
    ),
    scenarioId: IdSchema.optional().describe('a saved scenario; or give `scenario`'),
    scenario: ScenarioSchema.optional().describe(
      'template and parameters (constant-arrival-rate for an SLO); saved as a scenario row',
    ),
    scenarioName: restName(120).optional(),
    knob: ADVISOR_REQUEST_FIELDS.knob.describe('the pool-config parameter searched'),
    min: ADVISOR_REQUEST_FIELDS.min.describe('smallest setting'),
    max: ADVISOR_REQUEST_FIELDS.max.describe('largest setting'),
    objective: ADVISOR_REQUEST_FIELDS.objective.describe(
      "an SLO at the scenario's arrival rate (recommends the smallest setting that meets it), or the highest throughput (the smallest setting not below the best)",
    ),
    budgetRuns: ADVISOR_REQUEST_FIELDS.budgetRuns
      .default(24)
      .describe('the most runs the search may spend'),
    repeatsPerSetting: ADVISOR_REQUEST_FIELDS.repeatsPerSetting.describe(
      'runs per setting in each step',
    ),
    ...CiOriginFields,
  })
  .refine((v) => (v.scenarioId === undefined) !== (v.scenario === undefined), {
    message: 'give exactly one of scenarioId and scenario',
    path: ['scenario'],
  })
  .superRefine(advisorRequestProblems)
  .meta({ oneOf: [{ required: ['scenarioId'] }, { required: ['scenario'] }] });

export type StartAdvisor = z.output<typeof StartAdvisorSchema>;
