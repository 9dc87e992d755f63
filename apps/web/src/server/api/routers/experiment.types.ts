import { z } from 'zod';
import {
  ExperimentStatus,
  RunOrder,
  RunSummarySchema,
  SequentialStateSchema,
  AdvisorSpecSchema,
  AdvisorStateSchema,
  TargetKind,
} from '@poolbench/db';
import { RunStatusSchema } from '@poolbench/contracts';
import { RefSchema as Ref, RunRowFields } from './shared.types';
import { HypothesesAnswerSchema } from './hypothesis.types';

/** Response schemas of the experiment procedures (documenso's `.types.ts` pattern). */

/** "until decided": the budget, the metrics and the sequential rule's last answer */
export const ExperimentSequentialSchema = z.object({
  maxRepeats: z.number().int(),
  metrics: z.array(z.string()),
  state: SequentialStateSchema.nullable().describe(
    "the sequential rule's last answer (null before the first look)",
  ),
});

/** the pool-size advisor: what it was asked and its last answer (docs/advisor.md) */
export const ExperimentAdvisorSchema = z.object({
  spec: AdvisorSpecSchema,
  state: AdvisorStateSchema.nullable(),
});

/** How far an experiment's runs are; the REST experiment answer carries the same object. */
export const RunProgressSchema = z.object({
  done: z.number().int(),
  total: z.number().int(),
  byStatus: z.partialRecord(RunStatusSchema, z.number().int()),
});

/** Where a CI-started experiment came from (null for the rest). */
export const CiOriginSchema = z.object({
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  buildUrl: z.string().nullable(),
});

export const ExperimentListSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      repeats: z.number().int(),
      status: z.enum(ExperimentStatus),
      createdAt: z.date(),
      presetId: z.string().nullable(),
      scheduleId: z.string().nullable(),
      ...CiOriginSchema.shape,
      hypotheses: z.object({
        total: z.number().int(),
        holds: z.number().int(),
        doesNotHold: z.number().int(),
        unresolved: z.number().int(),
        pending: z.number().int(),
      }),
      target: Ref,
      poolConfigCount: z.number().int(),
      scenarioCount: z.number().int(),
      runCount: z.number().int(),
      progress: RunProgressSchema,
    }),
  ),
  nextCursor: z.string().nullable(),
});

export const ExperimentDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  repeats: z.number().int(),
  order: z.enum(RunOrder),
  status: z.enum(ExperimentStatus),
  createdAt: z.date(),
  finishedAt: z.date().nullable(),
  presetId: z.string().nullable(),
  scheduleId: z.string().nullable(),
  ...CiOriginSchema.shape,
  sequential: ExperimentSequentialSchema.nullable(),
  advisor: ExperimentAdvisorSchema.nullable(),
  target: Ref.extend({ kind: z.enum(TargetKind) }),
  poolConfigs: z.array(Ref.extend({ strategy: z.string() })),
  scenarios: z.array(Ref.extend({ templateId: z.string() })),
  runs: z.array(
    z.object({
      ...RunRowFields,
      poolConfigId: z.string().nullable(),
      scenarioId: z.string().nullable(),
      /** 0-based place among the runs of its scenario and repeat, by sequence (`positionsInRound`) */
      positionInRound: z.number().int(),
      /** null until the run measured, or when the stored summary no longer parses */
      summary: RunSummarySchema.nullable(),
    }),
  ),
  progress: RunProgressSchema,
  hypotheses: HypothesesAnswerSchema,
});

export const ExperimentEstimateSchema = z.object({
  runCount: z.number().int(),
  loadMs: z.number(),
  overheadMs: z.number(),
  totalMs: z.number(),
});

export const ExperimentLaunchedSchema = z.object({
  experimentId: z.string(),
  /** in execution order */
  runIds: z.array(z.string()),
  backlog: z.number().int(),
  /** false: the queue could not take the jobs; the runs are stored as queued and start when it is back */
  enqueued: z.boolean(),
  queueMessage: z.string().optional(),
});

export const ScheduleCreatedSchema = z.object({ id: z.string() });
