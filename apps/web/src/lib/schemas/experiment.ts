import { z } from 'zod';
import { IdSchema } from './ids';
import { previewCron } from './cron';
import { HypothesesSchema } from '@poolbench/scenarios';
import { DEFAULT_RUN_ORDER, RunOrderSchema } from '@poolbench/contracts';

export const RUN_OVERHEAD_MS = 5000;

/** Repeats of every cell of an experiment (or the most an until-decided one may run). */
export const RepeatsSchema = z
  .number({ error: 'is required (a whole number from 1 to 50)' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(50, 'must be at most 50');

/** Repeats added to every cell of a finished experiment: with its first one, at most 50 in all. */
export const AddRepeatsSchema = z
  .number({ error: 'is required (a whole number)' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(49, 'must be at most 49');

/** Workers each run is split across (k6 execution segments, merged exactly); snapshotted per run. */
export const LoadGeneratorsSchema = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(16, 'must be at most 16');

export const ExperimentDefinitionSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
  targetId: IdSchema,
  poolConfigIds: z
    .array(IdSchema)
    .min(1, 'choose at least one pool config')
    .max(20, 'at most 20 pool configs'),
  scenarioIds: z
    .array(IdSchema)
    .min(1, 'choose at least one scenario')
    .max(20, 'at most 20 scenarios'),
  repeats: RepeatsSchema,
  // How the configs take turns within each repeat (docs/metrics.md, "Run order").
  order: RunOrderSchema.default(DEFAULT_RUN_ORDER),
  loadGenerators: LoadGeneratorsSchema.default(1),
  presetId: z.string().max(120).nullish(),
  // Pre-registered claims about the chosen cells, decided when the experiment ends (docs/hypotheses.md).
  hypotheses: HypothesesSchema.default([]),
  // "Until decided, at most maxRepeats per side" (the hypotheses, or two configs and one scenario): docs/metrics.md
  untilDecided: z
    .object({
      maxRepeats: RepeatsSchema,
      metrics: z.array(z.string().max(40)).max(12).optional(),
    })
    .nullish(),
});
export type ExperimentDefinition = z.input<typeof ExperimentDefinitionSchema>;

export const ScheduleInputSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(120),
  cron: z.string().trim().min(9, 'must have five fields, e.g. "0 3 * * *"').max(120),
  timezone: z.string().min(1).max(64).default('UTC'),
});

/** Editing a schedule: the cron and time zone are checked in words by the server (previewCron), each under its field. */
export const ScheduleUpdateSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
  cron: z.string().trim().min(9, 'must have five fields, e.g. "0 3 * * *"').max(120),
  timezone: z.string().trim().min(1, 'is required').max(64),
  repeats: RepeatsSchema,
});

/** The schedule part of the experiment form: the cron and time zone checked in words, each under its own field. */
const ScheduleFieldsSchema = z.object({
  name: z.string().trim().max(120, 'must be at most 120 characters'),
  cron: z.string(),
  timezone: z.string().trim(),
});
const CheckedScheduleFieldsSchema = ScheduleFieldsSchema.superRefine((s, ctx) => {
  const p = previewCron(s.cron, s.timezone, 1);
  if (!p.ok)
    ctx.addIssue({
      code: 'custom',
      path: [p.field ?? 'cron'],
      message: p.error ?? 'is not a valid cron expression',
    });
});

/**
 * The experiment form (react-hook-form + zodResolver): the server's own definition schema, a name
 * that may be left blank, and the schedule fields, checked only when the user schedules.
 */
const formBase = ExperimentDefinitionSchema.extend({
  name: z.string().trim().max(120, 'must be at most 120 characters'),
  mode: z.enum(['now', 'schedule']),
});
export const ExperimentFormSchema = formBase.extend({ schedule: ScheduleFieldsSchema });
export const ScheduledExperimentFormSchema = formBase.extend({
  schedule: CheckedScheduleFieldsSchema,
});
export type ExperimentFormInput = z.input<typeof ExperimentFormSchema>;
export type ExperimentFormOutput = z.output<typeof ExperimentFormSchema>;
