import { z } from 'zod';
import { RunStatusSchema } from '@poolbench/contracts';
import { runView } from '~/server/services/ci/run-view';
import { op, type Operation } from '../operation';
import {
  RunInsightSchema,
  RunSegmentViewSchema,
  RunValiditySchema,
} from '~/server/api/routers/run.types';
import { Iso, NullableRef, PositionInRoundSchema } from '../schemas';

const LatencySchema = z.looseObject({
  p50: z.number(),
  p95: z.number(),
  p99: z.number(),
  max: z.number(),
});

const CheckTotalsSchema = z.looseObject({ passes: z.number(), fails: z.number() });

export const RunSummarySchema = z
  .looseObject({
    requests: z.number(),
    failed: z.number(),
    errorRate: z.number().nullable(),
    rps: z.number().nullable(),
    durationMs: z.number(),
    latency: LatencySchema.nullable(),
    checks: CheckTotalsSchema.extend({
      items: z.array(
        CheckTotalsSchema.extend({
          name: z.string(),
          group: z.string().describe("k6's group path: '' for the root, '::outer::inner' nested"),
        }),
      ),
      overflow: CheckTotalsSchema.optional().describe(
        'results of check names past the 64 kept per run, counted together',
      ),
    })
      .optional()
      .describe(
        'k6 check() results of the load (setup() and teardown() left out), per check and in all (passes / (passes + fails) is what a checks threshold reads); absent when the run had no check; added in v1',
      ),
    subMetrics: z
      .array(
        z.looseObject({
          name: z.string().describe('metric{tag:value,…}'),
          metric: z.string(),
          tags: z.record(z.string(), z.string()),
          type: z.string().describe('trend, rate, counter, gauge, or none without samples'),
          count: z.number(),
          time: z
            .boolean()
            .optional()
            .describe("a trend's: whether it holds times (ms), as a custom metric's time"),
        }),
      )
      .optional()
      .describe(
        'tagged series the thresholds name and the other values of their tags, over the load, at most 50 (subMetricsDropped: samples of further series); absent without a sub-metric threshold; added in v1',
      ),
    custom: z
      .record(
        z.string(),
        z.looseObject({
          type: z.string().describe('trend, counter, rate or gauge'),
          count: z.number().describe("samples (a trend's: those in its statistics)"),
          time: z
            .boolean()
            .optional()
            .describe(
              "a trend's: true when it holds times (k6's new Trend(name, true), group_duration), its statistics in ms; false when it holds plain numbers, its statistics in the script's own unit; absent on runs stored before it was kept (those read as times)",
            ),
          negative: z
            .number()
            .optional()
            .describe(
              "a trend's samples below 0, which its histogram cannot hold: in neither its statistics nor count; absent when none",
            ),
          aboveTop: z
            .number()
            .optional()
            .describe(
              "a trend's samples above its histogram's top (1 h of ms; 3,600,000 of a plain number): held at the top and in count, so a statistic at the top means at least the top; absent when none",
            ),
        }),
      )
      .optional()
      .describe(
        "the script's own k6 metrics over the load by name: a trend's statistics (ms for a trend of times, see time), a counter's sum, a rate, a gauge's value; at most 16; absent without any; added in v1",
      ),
  })
  .describe(
    'Run.summary from merged per-second histograms (times in ms); more fields than listed may be present',
  );

export const ThresholdResultSchema = z.object({
  metric: z.string(),
  expr: z.string(),
  observed: z.number().nullable(),
  pass: z.boolean(),
});

export const RunSchema = z.object({
  id: z.string(),
  experimentId: z.string(),
  status: RunStatusSchema,
  poolConfig: NullableRef,
  scenario: NullableRef,
  repeatIndex: z.number().int(),
  positionInRound: PositionInRoundSchema,
  queuedAt: Iso,
  startedAt: Iso.nullable(),
  finishedAt: Iso.nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  summary: RunSummarySchema.nullable(),
  thresholdResults: z.array(ThresholdResultSchema).nullable(),
  loadGenerators: z.number().int().describe('workers the run was split across; 1 = one k6'),
  segments: z
    .array(RunSegmentViewSchema)
    .describe(
      'one entry per load generator of a distributed run; empty for a run on one generator',
    ),
  insights: z
    .array(RunInsightSchema)
    .describe(
      "what makes the run's numbers suspect (critical: the run is invalid), most severe first; empty when nothing does",
    ),
  validity: RunValiditySchema.nullable().describe(
    'whether the numbers describe the load asked for (docs/outcomes.md): an invalid run (more than 1 % of its iterations dropped, below 95 % of its arrival rate, or more than 1 % of its requests lost as late samples) is left out of every verdict, with these reasons; null for a run without a summary; added in v1',
  ),
  webUrl: z.string(),
});

/** A run. */
export const RUN_OPERATIONS: Operation[] = [
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
];
