import { z } from 'zod';
import { HYPOTHESIS_METRIC_KEYS } from './hypothesis-metrics';

/** At most this many hypotheses per experiment: each is one more test, and there is no correction across them. */
export const MAX_HYPOTHESES = 10;

const id = z
  .string()
  .min(1, 'is required')
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an id');

/**
 * One cell of an experiment: pool config × scenario, by the ids the experiment's runs carry
 * (`Run.poolConfigId`, `Run.scenarioId`), which is also how the compare view names a cell
 * (`c.<experimentId>.<poolConfigId>.<scenarioId>`), so a hypothesis links to its comparison.
 */
export const HypothesisCellSchema = z.object({ poolConfigId: id, scenarioId: id });
export type HypothesisCell = z.infer<typeof HypothesisCellSchema>;

/** A preset's cell: its pool config by name and its scenario by the preset's scenario id. */
export const PresetHypothesisCellSchema = z.object({
  poolConfig: z.string().min(1, 'is required').max(100),
  scenario: z.string().min(1, 'is required').max(100),
});
export type PresetHypothesisCell = z.infer<typeof PresetHypothesisCellSchema>;

/** Elapsed seconds [from, to) of every run, as the compare view's window. */
export const HypothesisWindowSchema = z
  .object({
    from: z
      .number({ error: 'must be a number of seconds' })
      .int('must be whole seconds')
      .min(0, 'must be at least 0'),
    to: z
      .number({ error: 'must be a number of seconds' })
      .int('must be whole seconds')
      .min(1, 'must be at least 1'),
  })
  .refine((w) => w.to > w.from, { message: 'must be after from', path: ['to'] });
export type HypothesisWindow = z.infer<typeof HypothesisWindowSchema>;

export const HYPOTHESIS_EXPECTS = ['better', 'worse', 'equivalent'] as const;
export const HYPOTHESIS_BAND_UNITS = ['percent', 'absolute'] as const;

/** What a hypothesis claims, whichever way its cells are named: the rules every way in states once. */
export const HYPOTHESIS_FIELDS = {
  metric: z.enum(HYPOTHESIS_METRIC_KEYS, {
    error: `must be one of ${HYPOTHESIS_METRIC_KEYS.join(', ')}`,
  }),
  /** candidate against base: better or worse by at least `band`, or equivalent within ±`band` */
  expect: z.enum(HYPOTHESIS_EXPECTS, { error: 'must be better, worse or equivalent' }),
  band: z
    .number({ error: 'must be a number' })
    .min(0, 'must be at least 0')
    .max(1000, 'must be at most 1000'),
  /** `percent` of the base (default), or `absolute` in the metric's unit; error rates are always in points */
  bandUnit: z.enum(HYPOTHESIS_BAND_UNITS, { error: 'must be percent or absolute' }).optional(),
  window: HypothesisWindowSchema.nullish(),
  /** the claim in the author's words (e.g. a seed's sentence with its numbers); the formal statement is generated */
  claim: z.string().trim().max(500, 'must be at most 500 characters').optional(),
};

function refineHypothesis<C>(same: (a: C, b: C) => boolean) {
  return (
    h: { base: C; candidate: C; metric: string; bandUnit?: string },
    ctx: z.RefinementCtx,
  ) => {
    if (same(h.base, h.candidate))
      ctx.addIssue({
        code: 'custom',
        path: ['candidate'],
        message: 'must be a different cell than base',
      });
    // Error rates are percentages already: a relative band on them would flip with a zero baseline.
    if (h.metric === 'errorRate' && h.bandUnit === 'percent')
      ctx.addIssue({
        code: 'custom',
        path: ['bandUnit'],
        message: 'error rate bands are in percentage points (absolute)',
      });
  };
}

/** A hypothesis of an experiment, fixed before its first run starts. */
export const HypothesisSchema = z
  .object({ base: HypothesisCellSchema, candidate: HypothesisCellSchema, ...HYPOTHESIS_FIELDS })
  .superRefine(
    refineHypothesis<HypothesisCell>(
      (a, b) => a.poolConfigId === b.poolConfigId && a.scenarioId === b.scenarioId,
    ),
  );
export type Hypothesis = z.infer<typeof HypothesisSchema>;
export type HypothesisInput = z.input<typeof HypothesisSchema>;

export const HypothesesSchema = z
  .array(HypothesisSchema)
  .max(MAX_HYPOTHESES, `at most ${MAX_HYPOTHESES} hypotheses per experiment`);

/** The same claim on a preset, before it is an experiment: cells by pool config name and preset scenario id. */
export const PresetHypothesisSchema = z
  .object({
    base: PresetHypothesisCellSchema,
    candidate: PresetHypothesisCellSchema,
    ...HYPOTHESIS_FIELDS,
  })
  .superRefine(
    refineHypothesis<PresetHypothesisCell>(
      (a, b) => a.poolConfig === b.poolConfig && a.scenario === b.scenario,
    ),
  );
export type PresetHypothesis = z.infer<typeof PresetHypothesisSchema>;
