import { z } from 'zod';
import { HypothesisVerdictSchema } from '@poolbench/scenarios';

/** Response schemas of the seeds procedures: the client's types come from here. */

export const SeedClaimResultSchema = HypothesisVerdictSchema.extend({
  claim: z.string().nullable(),
  statement: z.string(),
  comparePath: z.string(),
  decidedBy: z.enum(['stored', 'runs']),
});

export const SeedsOverviewSchema = z.object({
  presets: z.array(
    z.object({
      id: z.string(),
      seed: z.string(),
      title: z.string(),
      description: z.string(),
      seedsScale: z.number(),
      runs: z.number().int(),
      estimatedMs: z.number(),
      claims: z.array(z.object({ claim: z.string(), statement: z.string() })),
    }),
  ),
  latest: z
    .object({
      reproductionId: z.string(),
      experiments: z.array(
        z.object({
          presetId: z.string(),
          seed: z.string(),
          title: z.string(),
          experimentId: z.string(),
          experimentName: z.string(),
          status: z.string(),
          createdAt: z.date(),
          finishedAt: z.date().nullable(),
          claims: z.array(SeedClaimResultSchema),
        }),
      ),
    })
    .nullable(),
});
export type SeedsOverview = z.infer<typeof SeedsOverviewSchema>;

export const SeedsReproducedSchema = z.object({
  reproductionId: z.string(),
  experimentIds: z.array(z.string()),
  enqueued: z.boolean(),
});
