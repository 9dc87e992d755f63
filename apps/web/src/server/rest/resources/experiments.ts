import { z } from 'zod';
import { RunOrderSchema, RunStatusSchema, ScriptMetricSummarySchema } from '@poolbench/contracts';
import { AddRepeatsSchema } from '~/lib/schemas/experiment';
import {
  ExperimentAdvisorSchema,
  ExperimentSequentialSchema,
  RunProgressSchema,
} from '~/server/api/routers/experiment.types';
import { HypothesisFields } from '~/server/api/routers/hypothesis.types';
import { experimentSummary } from '~/server/services/ci/experiment-summary';
import { experimentView } from '~/server/services/ci/experiment-view';
import { extendTeamExperiment } from '~/server/services/experiments/hypotheses';
import { cancelTeamExperiment } from '~/server/services/experiments/cancel-experiment';
import { launchWarnings } from '~/server/services/ci/launch-warnings';
import { startCiExperiment } from '~/server/services/ci/start-ci-experiment';
import type { RestDeps } from '../deps';
import { op, type Operation } from '../operation';
import { RunInsightSchema } from '~/server/api/routers/run.types';
import { Iso, PositionInRoundSchema, Ref, NullableRef } from '../schemas';
import { ThresholdResultSchema } from './runs';
import { StartExperimentSchema } from './experiment-requests';

export const ExperimentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed', 'canceled']),
  finished: z.boolean().describe('every run reached a terminal status'),
  repeats: z.number().int(),
  order: RunOrderSchema.describe(
    'how the pool configs take turns within each repeat (docs/metrics.md, "Run order"); experiments launched before counterbalanced existed are interleaved',
  ),
  createdAt: Iso,
  finishedAt: Iso.nullable(),
  target: Ref,
  poolConfigs: z.array(Ref),
  scenarios: z.array(Ref),
  progress: RunProgressSchema,
  runs: z.array(
    z.object({
      id: z.string(),
      status: RunStatusSchema,
      poolConfigId: z.string().nullable(),
      scenarioId: z.string().nullable(),
      repeatIndex: z.number().int(),
      sequence: z.number().int(),
      positionInRound: PositionInRoundSchema,
      startedAt: Iso.nullable(),
      finishedAt: Iso.nullable(),
      errorMessage: z.string().nullable(),
      insights: z
        .array(RunInsightSchema)
        .describe(
          "what makes the run's numbers suspect, from its stored data (GET /runs/{id} adds the per-second checks)",
        ),
    }),
  ),
  sequential: ExperimentSequentialSchema.nullable().describe(
    'an "until decided" experiment: its budget, metrics and decisions; null otherwise',
  ),
  advisor: ExperimentAdvisorSchema.nullable().describe(
    'a pool-size advisor (docs/advisor.md): what it was asked and its last answer (recommended setting, per-setting verdicts, model fits); null otherwise',
  ),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  buildUrl: z.string().nullable(),
  hypotheses: z
    .array(z.object({ ...HypothesisFields, decidedAt: Iso.nullable() }))
    .describe('pre-registered claims and their decisions (pending until the experiment ends)'),
  webUrl: z.string(),
  notice: z
    .string()
    .optional()
    .describe(
      'set on start when the run queue was unavailable: the runs are stored as queued and start when it is back',
    ),
  warnings: z
    .array(
      z.object({
        code: z
          .enum(['no_worker_online'])
          .describe(
            'no_worker_online: no worker has a recent heartbeat, so nothing takes the runs',
          ),
        message: z
          .string()
          .describe('what it means and what to do, e.g. the command that starts a worker'),
      }),
    )
    .optional()
    .describe('set on start when something keeps the runs from starting; the launch stands'),
});

const MetricValueSchema = z.object({
  key: z.string(),
  label: z.string(),
  unit: z.string(),
  n: z.number().int(),
  median: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});

export const ExperimentSummarySchema = z.object({
  experimentId: z.string(),
  status: z.string(),
  finished: z.boolean(),
  cells: z.array(
    z.object({
      poolConfig: NullableRef,
      scenario: NullableRef,
      runs: z.number().int(),
      succeeded: z
        .number()
        .int()
        .describe(
          'runs that measured: succeeded, or ran to their end with a failed threshold (status thresholds_failed)',
        ),
      metrics: z
        .array(MetricValueSchema)
        .describe('one value per measured run, summarized across repeats'),
      scriptMetrics: z
        .array(ScriptMetricSummarySchema)
        .describe(
          "the script's own k6 metrics (Trend, Counter, Rate, Gauge) and its groups' durations over the measured runs, in the order first seen; empty without any; added in v1",
        ),
      thresholds: z.object({
        passed: z.number().int(),
        failed: z.number().int(),
        failures: z.array(ThresholdResultSchema.extend({ runId: z.string() })),
      }),
    }),
  ),
  thresholdsFailed: z.boolean(),
});

export const ExtendExperimentSchema = z.strictObject({
  addRepeats: AddRepeatsSchema.describe('repeats of every cell to add'),
});

export const ExperimentCancelSchema = z.object({
  canceled: z.number().int().describe('queued runs canceled at once'),
  cancelRequested: z
    .number()
    .int()
    .describe('runs already preparing or running: flagged, their worker stops them within seconds'),
  alreadyFinished: z.number().int().describe('runs that had already ended, left as they were'),
});

/** A started experiment as the API shows it, with the queue's notice when its runs wait for it. */
export async function launchedView(
  deps: RestDeps,
  teamId: string,
  launched: { experimentId: string; enqueued: boolean; queueMessage?: string },
) {
  const view = await experimentView(deps.db, teamId, launched.experimentId, deps.baseUrl);
  const warnings = await launchWarnings(deps.db);
  return {
    ...view,
    ...(launched.enqueued ? {} : { notice: launched.queueMessage }),
    ...(warnings.length ? { warnings } : {}),
  };
}

/** Experiments: start one, read it and its summary, add repeats, cancel it. */
export const EXPERIMENT_OPERATIONS: Operation[] = [
  op({
    method: 'POST',
    path: '/experiments',
    operationId: 'startExperiment',
    scope: 'runs:write',
    idempotent: true,
    status: 201,
    summary: 'Start an experiment',
    description:
      'From a saved experiment (by id or name) or inline: target + pool configs + a scenario (saved id, or template and parameters). Send an `Idempotency-Key` header so a retried CI step never starts a second load test.',
    body: StartExperimentSchema,
    bodyName: 'StartExperiment',
    response: ExperimentSchema,
    responseName: 'Experiment',
    handle: async ({ deps, principal, body }) => {
      const launched = await startCiExperiment(
        { db: deps.db, queue: deps.queue() },
        { teamId: principal.teamId, userId: principal.createdById, body },
      );
      return launchedView(deps, principal.teamId, launched);
    },
  }),
  op({
    method: 'GET',
    path: '/experiments/{id}',
    operationId: 'getExperiment',
    scope: 'runs:read',
    status: 200,
    summary: 'Experiment status and its runs',
    response: ExperimentSchema,
    responseName: 'Experiment',
    handle: ({ deps, principal, params }) =>
      experimentView(deps.db, principal.teamId, params.id!, deps.baseUrl),
  }),
  op({
    method: 'GET',
    path: '/experiments/{id}/summary',
    operationId: 'getExperimentSummary',
    scope: 'runs:read',
    status: 200,
    summary: 'Metrics per pool config x scenario across repeats, and threshold results',
    response: ExperimentSummarySchema,
    responseName: 'ExperimentSummary',
    handle: ({ deps, principal, params }) =>
      experimentSummary(deps.db, principal.teamId, params.id!),
  }),
  op({
    method: 'POST',
    path: '/experiments/{id}/extend',
    operationId: 'extendExperiment',
    scope: 'runs:write',
    idempotent: true,
    status: 200,
    summary: 'Add repeats to a finished experiment',
    description:
      'Every cell gets `addRepeats` more runs, appended to the same experiment in its run order, carried on from its last round (same snapshots as its earlier runs); its hypotheses are decided again over all repeats when the new runs end. Refused while runs are still to go. Send an `Idempotency-Key` so a retried step adds them once.',
    body: ExtendExperimentSchema,
    bodyName: 'ExtendExperiment',
    response: ExperimentSchema,
    responseName: 'Experiment',
    handle: async ({ deps, principal, params, body }) => {
      const r = await extendTeamExperiment(
        { db: deps.db, queue: deps.queue() },
        principal.teamId,
        params.id!,
        body.addRepeats,
      );
      const view = await experimentView(deps.db, principal.teamId, r.experimentId, deps.baseUrl);
      return r.enqueued ? view : { ...view, notice: r.queueMessage ?? undefined };
    },
  }),
  op({
    method: 'POST',
    path: '/experiments/{id}/cancel',
    operationId: 'cancelExperiment',
    scope: 'runs:write',
    status: 200,
    summary: 'Cancel every run of the experiment that has not ended',
    description:
      'Queued runs are canceled at once; runs already preparing or running get the cancel flag and stop within seconds. Canceling again (or a finished experiment) changes nothing and answers the counts.',
    response: ExperimentCancelSchema,
    responseName: 'ExperimentCancel',
    handle: ({ deps, principal, params }) =>
      cancelTeamExperiment(
        { db: deps.db, queue: deps.queue(), redis: deps.redis() },
        principal.teamId,
        params.id!,
      ),
  }),
];
