import { z } from 'zod';
import { ExperimentStatus } from '@poolbench/db';
import { RefSchema } from './shared.types';

/** Response schemas of the schedule procedures (documenso's `.types.ts` pattern). */
export const CronPreviewSchema = z.object({
  ok: z.boolean(),
  error: z.string().nullable(),
  /** which input the error is about, so forms show it under that field */
  field: z.enum(['cron', 'timezone']).nullable(),
  description: z.string().nullable(),
  /** ISO strings, UTC */
  next: z.array(z.string()),
});

export const ScheduleListSchema = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    cron: z.string(),
    timezone: z.string(),
    paused: z.boolean(),
    lastFiredAt: z.date().nullable(),
    createdAt: z.date(),
    sourceExperiment: z.object({
      id: z.string(),
      repeats: z.number().int(),
      target: RefSchema,
      _count: z.object({ poolConfigs: z.number().int(), scenarios: z.number().int() }),
    }),
    experiments: z.array(z.object({ id: z.string(), createdAt: z.date(), status: z.enum(ExperimentStatus) })),
    preview: CronPreviewSchema,
    lastExperiment: z.object({ id: z.string(), createdAt: z.date(), status: z.enum(ExperimentStatus) }).nullable(),
  }),
);

/** pause, resume and delete answer nothing */
export const ScheduleDoneSchema = z.void();
