import { z } from 'zod';
import { LIMITS } from '@poolbench/scenarios';
import { gateMetricsProblem, parseGateMetrics, TESTED_RUN_METRIC_KEYS } from '@poolbench/contracts';
import type { ApiPrincipal } from '~/server/services/api-tokens/authenticate-api-token';
import type { ApiScope } from '~/lib/api-scopes';
import { compareWithBaseline } from '~/server/services/ci/compare-with-baseline';
import { compareWithPoolConfig } from '~/server/services/ci/compare-with-pool-config';
import { experimentSummary } from '~/server/services/ci/experiment-summary';
import { experimentView } from '~/server/services/ci/experiment-view';
import { extendTeamExperiment } from '~/server/services/experiments/hypotheses';
import { cancelTeamExperiment } from '~/server/services/experiments/cancel-experiment';
import { runView } from '~/server/services/ci/run-view';
import { saveBaseline } from '~/server/services/ci/save-baseline';
import { listTeamBaselines, removeTeamBaseline } from '~/server/services/ci/team-baselines';
import { launchWarnings } from '~/server/services/ci/launch-warnings';
import { startCiExperiment } from '~/server/services/ci/start-ci-experiment';
import { startCiAdvisor } from '~/server/services/ci/start-ci-advisor';
import { createCiShareLink } from '~/server/services/ci/create-share-link';
import {
  BaselineListQuery,
  BaselineListSchema,
  BaselineRemovedSchema,
  BaselinesSchema,
  ComparisonSchema,
  CreateShareSchema,
  ExperimentCancelSchema,
  ExperimentSchema,
  ExtendExperimentSchema,
  ExperimentSummarySchema,
  restName,
  RunSchema,
  SaveBaselineSchema,
  ShareLinkSchema,
  StartExperimentSchema,
  StartAdvisorSchema,
} from './contracts';
import type { RestDeps } from './deps';
import { ChangePointsQuery, ChangePointsSchema } from './change-points-contract';
import { changePointsByRef } from '~/server/services/trends/change-points-view';

export interface OperationContext<B, Q> {
  deps: RestDeps;
  principal: ApiPrincipal;
  params: Record<string, string>;
  query: Q;
  body: B;
}

export interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI path template below /api/v1 */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  scope: ApiScope;
  query?: z.ZodObject;
  /**
   * Rules across query parameters (JSON Schema keywords such as `not`, `dependentRequired`): the
   * OpenAPI document then describes the query as one exploded object with these rules, which is
   * the same query string, so generated clients know the rules too.
   */
  queryRules?: Record<string, unknown>;
  body?: z.ZodType;
  /** component names for the OpenAPI document */
  bodyName?: string;
  /** accepts an Idempotency-Key header: a retry returns the first response instead of acting twice */
  idempotent?: boolean;
  status: number;
  response: z.ZodType;
  responseName: string;
  // Method syntax: each operation's handle takes its own parsed body/query types (checked in op()).
  handle(ctx: OperationContext<unknown, unknown>): Promise<unknown>;
}

function op<B extends z.ZodType | undefined, Q extends z.ZodObject | undefined>(
  o: Omit<Operation, 'handle' | 'body' | 'query'> & {
    body?: B;
    query?: Q;
    handle(
      ctx: OperationContext<
        B extends z.ZodType ? z.output<B> : undefined,
        Q extends z.ZodObject ? z.output<Q> : undefined
      >,
    ): Promise<unknown>;
  },
): Operation {
  return o;
}

const GateMetricsParam = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  )
  .superRefine((keys, ctx) => {
    const problem = gateMetricsProblem(keys);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((keys) => parseGateMetrics(keys))
  .optional()
  .meta({
    pattern: `^ *(${TESTED_RUN_METRIC_KEYS.join('|')}) *(, *(${TESTED_RUN_METRIC_KEYS.join('|')}) *)*$`,
  })
  .describe(
    `comma-separated tested metrics to gate on, e.g. p99Ms,rps: only these are compared and their p-values adjusted together, which gives fewer runs the power to detect a regression in them (choose them before looking at results). Default: every tested metric. Keys: ${TESTED_RUN_METRIC_KEYS.join(', ')}`,
  );

/** no run lasts longer, so a window bound past it selects nothing a smaller bound would not */
const MAX_WINDOW_SECOND = LIMITS.maxDurationMs / 1000;

const WindowSecond = (what: string) =>
  z
    .preprocess(
      (v) => (v === '' ? undefined : v), // `from=` is absent, not 0
      z.coerce
        .number({ error: 'must be a whole number of seconds' })
        .min(0, { error: 'must be 0 or more', abort: true })
        // zod's int also refuses past 2^53: past the bound, the bound is the one problem to name
        .max(MAX_WINDOW_SECOND, {
          error: `must be at most ${MAX_WINDOW_SECOND} (a run lasts at most that many seconds)`,
          abort: true,
        })
        .int('must be a whole number of seconds')
        .optional(),
    )
    .describe(
      `${what} of the elapsed-seconds window [from, to) of every run that the comparison is over, e.g. from=10 to leave out a 10-second warm-up; give both or neither. Default: whole runs`,
    );

const CompareQuery = z
  .object({
    baseline: restName(64)
      .optional()
      .describe('baseline name, e.g. main (the default when `base` is not given)'),
    base: restName(200)
      .optional()
      .describe(
        'instead of a saved baseline: a pool config (id or name) of this experiment that every other pool config is compared with, scenario by scenario (gate config A against config B inside one experiment)',
      ),
    metrics: GateMetricsParam,
    from: WindowSecond('first second'),
    to: WindowSecond('end (exclusive)'),
  })
  .superRefine((q, ctx) => {
    if (q.base !== undefined && q.baseline !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['base'],
        message:
          'give baseline (a saved baseline) or base (a pool config of this experiment), not both',
      });
    if ((q.from === undefined) !== (q.to === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [q.from === undefined ? 'from' : 'to'],
        message: 'give from and to together',
      });
    else if (q.from !== undefined && q.to !== undefined && q.to <= q.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `must be after from (${q.from})` });
  });

/** A started experiment as the API shows it, with the queue's notice when its runs wait for it. */
async function launchedView(
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

export const OPERATIONS: Operation[] = [
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
    method: 'POST',
    path: '/advisors',
    operationId: 'startAdvisor',
    scope: 'runs:write',
    idempotent: true,
    status: 201,
    summary: 'Start the pool-size advisor',
    description:
      "Searches the pool config's max pool size over [min, max] for the smallest setting that meets an SLO at the scenario's arrival rate (or the highest throughput), by experiment: a coarse pass, then refinement and repeats where neighbours are close, within `budgetRuns` (docs/advisor.md). Answers the advisor's experiment; poll `GET /experiments/{id}` until `finished`, then read `advisor.state`.",
    body: StartAdvisorSchema,
    bodyName: 'StartAdvisor',
    response: ExperimentSchema,
    responseName: 'Experiment',
    handle: async ({ deps, principal, body }) => {
      const launched = await startCiAdvisor(
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
    method: 'GET',
    path: '/experiments/{id}/compare',
    operationId: 'compareExperiment',
    scope: 'runs:read',
    status: 200,
    summary:
      'Compare every cell with a named baseline, or with one pool config of the same experiment',
    description:
      "Verdicts per metric from @poolbench/stats (Mann-Whitney U, Hodges-Lehmann interval, 5 % practical floor, p-values adjusted with Holm across the primary metrics (rps, p95Ms, p99Ms, errorRate, or every metric `metrics` chooses) and with Benjamini-Hochberg across the rest). With fewer than 2 measured runs on a side (the least Mann–Whitney needs), or more than a third of the candidate's runs crashed, a cell is `incomplete` with the reason, never `pass`; with the 4 default primary metrics, 5 runs per side can make a one-metric regression `worse` (smallest p 0.008, times 4). `metrics` limits the comparison to the metrics you gate on; `gatedOn` in the answer lists them. `from`/`to` compare only those seconds of every run (each run's metrics are recomputed from its stored seconds in the window); `window` in the answer says which. With `base=<pool config>` every other pool config is compared with that one inside this experiment (no saved baseline needed); `base` in the answer names it.",
    query: CompareQuery,
    queryRules: {
      not: { required: ['baseline', 'base'] },
      dependentRequired: { from: ['to'], to: ['from'] },
      description:
        'baseline or base, not both; from and to together, to after from (the last is checked by the server only)',
    },
    response: ComparisonSchema,
    responseName: 'Comparison',
    handle: ({ deps, principal, params, query }) => {
      const window =
        query.from !== undefined && query.to !== undefined
          ? { from: query.from, to: query.to }
          : null;
      return query.base !== undefined
        ? compareWithPoolConfig(
            deps.db,
            principal.teamId,
            params.id!,
            query.base,
            query.metrics,
            window,
          )
        : compareWithBaseline(
            deps.db,
            principal.teamId,
            params.id!,
            query.baseline ?? 'main',
            query.metrics,
            window,
          );
    },
  }),
  op({
    method: 'POST',
    path: '/experiments/{id}/share',
    operationId: 'createShareLink',
    scope: 'runs:write',
    status: 201,
    summary: 'Create a read-only share link for the experiment',
    body: CreateShareSchema,
    bodyName: 'CreateShareLink',
    response: ShareLinkSchema,
    responseName: 'ShareLink',
    handle: ({ deps, principal, params, body }) =>
      createCiShareLink(deps.db, {
        teamId: principal.teamId,
        userId: principal.createdById,
        experimentId: params.id!,
        baseUrl: deps.baseUrl,
        ...body,
      }),
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
  op({
    method: 'GET',
    path: '/runs/{id}',
    operationId: 'getRun',
    scope: 'runs:read',
    status: 200,
    summary: 'Run status, summary and threshold results',
    response: RunSchema,
    responseName: 'Run',
    handle: ({ deps, principal, params }) =>
      runView(deps.db, principal.teamId, params.id!, deps.baseUrl),
  }),
  op({
    method: 'GET',
    path: '/change-points',
    operationId: 'getChangePoints',
    scope: 'runs:read',
    status: 200,
    summary: 'Change points in the history of one target x scenario x pool config',
    description:
      "Every firing (experiment) of the cell, oldest first, as Trends draws it (the median of its valid runs per metric); change points by E-divisive means with Student's t-test (p <= 0.001, at least 3 firings on each side; docs/change-points.md), each with the firings on either side (their commits and branches), the change and its 95 % interval, and whether it is a regression or an improvement for that metric. With `since` (a commit SHA or prefix of a firing that ran it, or an ISO date) `since.regressions` counts the regression change points after it: what got slower since a release.",
    query: ChangePointsQuery,
    response: ChangePointsSchema,
    responseName: 'ChangePoints',
    handle: async ({ deps, principal, query }) => {
      const answer = await changePointsByRef(deps.db, principal.teamId, query, {
        metrics: query.metrics,
        since: query.since,
      });
      const firing = (f: (typeof answer.changePoints)[number]['before']) => ({
        ...f,
        createdAt: f.createdAt.toISOString(),
      });
      return {
        ...answer,
        changePoints: answer.changePoints.map((c) => ({
          ...c,
          before: firing(c.before),
          after: firing(c.after),
        })),
      };
    },
  }),
  op({
    method: 'POST',
    path: '/baselines',
    operationId: 'saveBaseline',
    scope: 'runs:write',
    status: 200,
    summary: 'Make an experiment the named baseline (e.g. main) of its target and scenarios',
    body: SaveBaselineSchema,
    bodyName: 'SaveBaseline',
    response: BaselinesSchema,
    responseName: 'Baselines',
    handle: ({ deps, principal, body }) =>
      saveBaseline(deps.db, { teamId: principal.teamId, userId: principal.createdById, ...body }),
  }),
  op({
    method: 'GET',
    path: '/baselines',
    operationId: 'listBaselines',
    scope: 'runs:read',
    status: 200,
    summary: "The team's saved baselines, newest first",
    description:
      'Each baseline is one pool config of a target under one scenario, by name (e.g. main): what `compare?baseline=` compares that cell with. `target`, `scenario` and `name` narrow the list.',
    query: BaselineListQuery,
    response: BaselineListSchema,
    responseName: 'BaselineList',
    handle: ({ deps, principal, query }) => listTeamBaselines(deps.db, principal.teamId, query),
  }),
  op({
    method: 'DELETE',
    path: '/baselines/{id}',
    operationId: 'removeBaseline',
    scope: 'runs:write',
    status: 200,
    summary: 'Remove a saved baseline (its runs and experiment stay)',
    description:
      'A comparison with this name for its target, scenario and pool config then answers no-baseline until one is saved again.',
    response: BaselineRemovedSchema,
    responseName: 'BaselineRemoved',
    handle: ({ deps, principal, params }) =>
      removeTeamBaseline(deps.db, principal.teamId, params.id!),
  }),
];

/** Matches `/experiments/abc/summary` against the templates; params are checked by the handler. */
/** The methods the operation table has for a path (for `Allow`); empty when no route matches. */
export function allowedMethods(path: string): string[] {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter(
    (m) => m !== 'HEAD' && typeof matchOperation(m, path) === 'object',
  );
  return methods.length > 0 ? [...methods, 'OPTIONS'] : [];
}

function decodeOrNull(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function matchOperation(
  method: string,
  path: string,
): { op: Operation; params: Record<string, string> } | 'method' | null {
  const parts = path.split('/').filter(Boolean);
  let pathMatched = false;
  for (const o of OPERATIONS) {
    const tpl = o.path.split('/').filter(Boolean);
    if (tpl.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = tpl.every((t, i) => {
      if (t.startsWith('{')) {
        // server.mjs answers a malformed escape 400 first; behind anything else it matches nothing
        const value = decodeOrNull(parts[i]!);
        return value !== null && ((params[t.slice(1, -1)] = value), true);
      }
      return t === parts[i];
    });
    if (!ok) continue;
    pathMatched = true;
    if (o.method === method) return { op: o, params };
  }
  return pathMatched ? 'method' : null;
}
