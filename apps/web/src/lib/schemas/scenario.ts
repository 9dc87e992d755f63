import { z } from 'zod';
import { ScenarioSchema } from '@poolbench/scenarios';

/** What scenario.create and scenario.update take (the editor checks the same before sending). */
export const ScenarioSaveSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
  scenario: ScenarioSchema,
});
