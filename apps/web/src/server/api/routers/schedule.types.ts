import { z } from 'zod';
import {
  ExperimentStatus,
  NotificationStatus,
  ScheduleNotifyOn,
  WebhookFormat,
} from '@poolbench/db';
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
    experiments: z.array(
      z.object({ id: z.string(), createdAt: z.date(), status: z.enum(ExperimentStatus) }),
    ),
    baselineName: z.string().nullable(),
    notifyOn: z.enum(ScheduleNotifyOn),
    /** a suspected regression adds repeats up to this many per cell, once, then decides */
    settleUpToRepeats: z.number().int().nullable(),
    /** only the host: the URL itself is a credential and never leaves the server */
    webhook: z.object({ host: z.string(), format: z.enum(WebhookFormat) }).nullable(),
    /** the last firing's outcome against the baseline and its webhook delivery */
    lastNotification: z
      .object({
        experimentId: z.string(),
        outcome: z.string(),
        status: z.enum(NotificationStatus),
        attempts: z.number().int(),
        lastStatusCode: z.number().int().nullable(),
        lastError: z.string().nullable(),
        deliveredAt: z.date().nullable(),
        createdAt: z.date(),
      })
      .nullable(),
    preview: CronPreviewSchema,
    lastExperiment: z
      .object({ id: z.string(), createdAt: z.date(), status: z.enum(ExperimentStatus) })
      .nullable(),
  }),
);

/** pause, resume and delete answer nothing */
export const ScheduleDoneSchema = z.void();

export const ScheduleRunNowSchema = z.object({ experimentId: z.string() });

/** Per cell of a schedule's experiment, the baseline a firing will be compared with, or null. */
export const ScheduleBaselineCellsSchema = z.array(
  z.object({
    poolConfig: RefSchema,
    scenario: RefSchema,
    baseline: z
      .object({
        id: z.string(),
        savedAt: z.date(),
        experiment: RefSchema.nullable(),
        from: z.string(),
      })
      .nullable(),
  }),
);
