import { z } from 'zod';

/** The metrics a history is read in (Trends charts the same four), one median per firing. */
export const HISTORY_METRICS = ['p95Ms', 'p99Ms', 'rps', 'errorRate'] as const;
export type HistoryMetric = (typeof HISTORY_METRICS)[number];

/**
 * A change point in a cell's history, named by the firings on either side. `time` is how a
 * firing's time is held: `z.date()` in the server, an ISO string on the wire (REST, the CLI).
 */
export function changePointSchema<T extends z.ZodType>(time: T) {
  const firing = z.object({
    experimentId: z.string(),
    name: z.string(),
    createdAt: time,
    commit: z.string().nullable(),
    branch: z.string().nullable(),
  });
  return z.object({
    metric: z.enum(HISTORY_METRICS),
    kind: z
      .enum(['regression', 'improvement'])
      .describe('worse or better for this metric (latency and errors up, throughput down: worse)'),
    before: firing.describe('the last firing before the change'),
    after: firing.describe('the first firing after it'),
    firingsBefore: z.number().int().describe('firings before the change that the test used'),
    firingsAfter: z.number().int().describe('firings after it that the test used'),
    meanBefore: z.number().describe("the level before the change (mean of the firings' medians)"),
    meanAfter: z.number().describe('the level after it'),
    change: z.number().describe('relative change of the mean: after / before − 1'),
    interval: z
      .object({ estimate: z.number(), lower: z.number(), upper: z.number() })
      .nullable()
      .describe(
        'the change as a ratio, Hodges–Lehmann on log values, with its 95 % interval; null when a value is not positive',
      ),
    pValue: z.number().describe("Student's t-test of the firings on either side"),
  });
}

/** A change point as the server holds it. */
export const ChangePointSchema = changePointSchema(z.date());
export type ChangePoint = z.infer<typeof ChangePointSchema>;
/** A firing as a change point names it. */
export type FiringRef = ChangePoint['before'];

const named = z.object({ id: z.string(), name: z.string() });

/** The change points of one target × scenario × pool config, as REST answers them (JSON). */
export const ChangePointsAnswerSchema = z.object({
  target: named,
  scenario: named,
  poolConfig: named,
  firings: z.number().int().describe('firings (experiments) in the history read, at most 500'),
  changePoints: z.array(changePointSchema(z.iso.datetime())),
  since: z
    .object({ commit: z.string().nullable(), at: z.iso.datetime(), regressions: z.number().int() })
    .nullable()
    .describe(
      'when asked for changes since a commit or date: where that is, and the regressions after it',
    ),
});
export type ChangePointsAnswer = z.infer<typeof ChangePointsAnswerSchema>;
