import { z } from 'zod';
import { ChangePointsAnswerSchema, HISTORY_METRICS as TREND_METRICS } from '@poolbench/contracts';
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
    response: ChangePointsAnswerSchema,
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
