import { z } from 'zod';
import { HISTORY_METRICS as TREND_METRICS } from '@poolbench/runs';
import { restName } from './contracts';
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
