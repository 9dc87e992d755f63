import { z } from 'zod';
import { HISTORY_METRICS as TREND_METRICS } from '@poolbench/runs';
import { changePointsByRef } from '~/server/services/trends/change-points-view';
import { op, type Operation } from '../operation';
import { restName } from '../schemas';
import { SINCE_PATTERN } from '~/server/services/trends/change-points-view';

const Ref = (what: string) => restName(120).describe(`the ${what}, by id or exact name`);

export const ChangePointsQuery = z.object({
  target: Ref('target'),
  scenario: Ref('scenario'),
  poolConfig: Ref('pool config of the target'),
  metrics: z
    .string()
    .trim()
    .regex(
      new RegExp(`^(${TREND_METRICS.join('|')})(,(${TREND_METRICS.join('|')}))*$`),
      `a comma-separated list of ${TREND_METRICS.join(', ')}`,
    )
    .optional()
    .transform((s) => (s ? (s.split(',') as Array<(typeof TREND_METRICS)[number]>) : undefined))
    .describe(`metrics to look at, comma-separated (default all: ${TREND_METRICS.join(',')})`),
  since: z
    .string()
    .regex(
      SINCE_PATTERN,
      'give a commit SHA or its prefix (4 to 40 hex digits), a date (2026-11-01) or a UTC time (2026-11-01T03:00Z)',
    )
    .optional()
    .describe(
      'count the regressions after this commit (SHA or prefix of a firing that ran it) or UTC date or time',
    ),
});

const Firing = z.object({
  experimentId: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
});

export const ChangePointsSchema = z.object({
  target: z.object({ id: z.string(), name: z.string() }),
  scenario: z.object({ id: z.string(), name: z.string() }),
  poolConfig: z.object({ id: z.string(), name: z.string() }),
  firings: z.number().int().describe('firings (experiments) in the history read, at most 500'),
  changePoints: z.array(
    z.object({
      metric: z.enum(TREND_METRICS),
      kind: z.enum(['regression', 'improvement']),
      before: Firing.describe('the last firing before the change'),
      after: Firing.describe('the first firing after it'),
      firingsBefore: z.number().int(),
      firingsAfter: z.number().int(),
      meanBefore: z.number(),
      meanAfter: z.number(),
      change: z.number().describe('relative change of the mean: after / before − 1'),
      interval: z
        .object({ estimate: z.number(), lower: z.number(), upper: z.number() })
        .nullable()
        .describe('the relative change, Hodges–Lehmann on log values, with its 95 % interval'),
      pValue: z.number().describe("Student's t-test of the firings on either side"),
    }),
  ),
  since: z
    .object({ commit: z.string().nullable(), at: z.iso.datetime(), regressions: z.number().int() })
    .nullable(),
});

/** Change points in the history of one cell. */
export const CHANGE_POINT_OPERATIONS: Operation[] = [
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
];
