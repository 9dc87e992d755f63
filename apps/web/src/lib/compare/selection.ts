import { z } from 'zod';
import { RUN_METRICS } from '@poolbench/stats';
import { IdSchema } from '~/lib/schemas/ids';
import { compareItemsFromParam } from '@poolbench/contracts/links';

export const CompareItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('run'), runId: IdSchema }),
  /** an experiment cell: one pool config x one scenario with all its repeats */
  z.object({
    kind: z.literal('cell'),
    experimentId: IdSchema,
    poolConfigId: IdSchema,
    scenarioId: IdSchema,
  }),
]);
export type CompareItem = z.infer<typeof CompareItemSchema>;

const METRIC_KEYS = RUN_METRICS.map((m) => m.key) as [string, ...string[]];

/** What a comparison shows; a share link stores exactly this. */
export const SelectionSchema = z.object({
  items: z
    .array(CompareItemSchema)
    .min(2, 'pick at least 2 runs or cells')
    .max(6, 'pick at most 6 runs or cells'),
  /** index into items of the baseline; when absent a saved baseline among the items wins, else the first */
  baseline: z.number().int().min(0).max(5).nullish(),
  /** metric keys for the table; all when absent */
  metrics: z.array(z.enum(METRIC_KEYS)).nullish(),
  /** elapsed-seconds window for charts and merged percentiles, [from, to) */
  window: z
    .object({ from: z.number().int().min(0), to: z.number().int().min(1) })
    .refine((w) => w.to > w.from, { message: 'to must be after from', path: ['to'] })
    .nullish(),
  /**
   * The practical floor of each verdict: `calibrated` (the default) raises a metric's floor to the
   * noise floor an A/A calibration measured for the groups' target × scenario, where one exists;
   * `default` keeps every metric's own floor.
   */
  noiseFloor: z.enum(['calibrated', 'default']).nullish(),
});
export type Selection = z.infer<typeof SelectionSchema>;

export const itemKey = (i: CompareItem) =>
  i.kind === 'run' ? `run:${i.runId}` : `cell:${i.experimentId}:${i.poolConfigId}:${i.scenarioId}`;

/** The items of a compare URL (`@poolbench/contracts/links` writes them). */
export const itemsFromParam = (param: string | null | undefined): CompareItem[] =>
  compareItemsFromParam(param);
