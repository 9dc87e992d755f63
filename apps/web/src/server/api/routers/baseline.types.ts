import { z } from 'zod';
import { CompareItemSchema } from '~/lib/compare/selection';

/** Response schemas of the baseline procedures (documenso's `.types.ts` pattern). */
const BaselineFields = {
  id: z.string(),
  name: z.string(),
  targetId: z.string(),
  scenarioId: z.string(),
  /** a run baseline names its run; a cell baseline its experiment and pool config */
  runId: z.string().nullable(),
  experimentId: z.string().nullable(),
  poolConfigId: z.string().nullable(),
};
const named = z.object({ name: z.string() });

export const BaselineSetSchema = z.object(BaselineFields);

export const BaselineListSchema = z.array(
  z.object({
    ...BaselineFields,
    updatedAt: z.date(),
    target: named,
    scenario: named,
    poolConfig: named.nullable(),
    experiment: named.nullable(),
    item: CompareItemSchema,
    label: z.string(),
  }),
);

export const BaselineRemovedSchema = z.void();
