import { z } from 'zod';
import {
  HYPOTHESIS_BAND_UNITS,
  HYPOTHESIS_EXPECTS,
  HYPOTHESIS_METRIC_KEYS,
  HypothesisVerdictFields,
} from '@poolbench/scenarios';

const Cell = z.object({ poolConfigId: z.string(), scenarioId: z.string() });

/**
 * A pre-registered hypothesis and its decision, as the experiment page, share links and REST show
 * it. `decidedAt` is the only date: tRPC sends a Date, REST an ISO string (see hypothesisRest).
 */
export const HypothesisFields = {
  id: z.string(),
  position: z.number().int(),
  statement: z
    .string()
    .describe("the claim in words, generated from its fields and the cells' names"),
  claim: z
    .string()
    .nullable()
    .describe("the author's own words (e.g. a seed's sentence with its numbers)"),
  base: Cell,
  candidate: Cell,
  metric: z.enum(HYPOTHESIS_METRIC_KEYS),
  expect: z.enum(HYPOTHESIS_EXPECTS),
  band: z.number(),
  bandUnit: z.enum(HYPOTHESIS_BAND_UNITS),
  window: z.object({ from: z.number().int(), to: z.number().int() }).nullable(),
  ...HypothesisVerdictFields,
  repeatsNeeded: z
    .number()
    .int()
    .nullable()
    .describe(
      'unresolved: about this many repeats per side would likely resolve it at the observed spread',
    ),
  runsUsed: z.number().int().describe('runs the decision used (both cells)'),
  comparePath: z.string().describe('the compare view of the two cells, relative to the app'),
};
export const HypothesisViewSchema = z.object({
  ...HypothesisFields,
  decidedAt: z.date().nullable(),
});
export type HypothesisView = z.infer<typeof HypothesisViewSchema>;

export const HypothesesAnswerSchema = z.object({
  /** true once a run of the experiment left the queue: the hypotheses can no longer be edited */
  preRegistered: z.boolean(),
  items: z.array(HypothesisViewSchema),
});
