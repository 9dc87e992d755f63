import { z } from 'zod';
import { IdSchema } from './ids';

export const RUN_OVERHEAD_MS = 5000;

export const ExperimentDefinitionSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
  targetId: IdSchema,
  poolConfigIds: z.array(IdSchema).min(1, 'choose at least one pool config').max(20, 'at most 20 pool configs'),
  scenarioIds: z.array(IdSchema).min(1, 'choose at least one scenario').max(20, 'at most 20 scenarios'),
  repeats: z.number().int('must be a whole number').min(1, 'must be at least 1').max(50, 'must be at most 50'),
  order: z.enum(['interleaved', 'blocked']).default('interleaved'),
  // Workers each run is split across (k6 execution segments, merged exactly); snapshotted per run.
  loadGenerators: z.number().int('must be a whole number').min(1, 'must be at least 1').max(16, 'must be at most 16').default(1),
  presetId: z.string().max(120).nullish(),
});
export type ExperimentDefinition = z.input<typeof ExperimentDefinitionSchema>;

export const ScheduleInputSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(120),
  cron: z.string().trim().min(9, 'must have five fields, e.g. "0 3 * * *"').max(120),
  timezone: z.string().min(1).max(64).default('UTC'),
});
