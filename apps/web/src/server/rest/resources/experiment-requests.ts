import { z } from 'zod';
import { HYPOTHESIS_FIELDS, MAX_HYPOTHESES, ScenarioSchema } from '@poolbench/scenarios';
import { DEFAULT_RUN_ORDER, RunOrderSchema, TESTED_RUN_METRIC_KEYS } from '@poolbench/contracts';
import { IdSchema } from '~/lib/schemas/ids';
import { RepeatsSchema } from '~/lib/schemas/experiment';
import { CiOriginFields, IdOrName, LoadGeneratorsSchema, restName } from '../schemas';

/* The request bodies that start an experiment (POST /experiments), which the CI services read. */

const HypothesisCellRef = z.strictObject({
  poolConfig: IdOrName.describe('a pool config of the experiment, by id or exact name'),
  scenario: IdOrName.optional().describe(
    'a scenario of the experiment, by id or exact name; may be left out when it has one',
  ),
});

export const RestHypothesisSchema = z
  .strictObject({
    base: HypothesisCellRef,
    candidate: HypothesisCellRef,
    ...HYPOTHESIS_FIELDS,
    expect: HYPOTHESIS_FIELDS.expect.describe('candidate against base'),
    band: HYPOTHESIS_FIELDS.band.describe(
      'better/worse by at least this much, or equivalent within ±this',
    ),
    bandUnit: HYPOTHESIS_FIELDS.bandUnit.describe(
      "percent of the base (default) or absolute in the metric's unit; error rates are percentage points",
    ),
    window: HYPOTHESIS_FIELDS.window.describe(
      "elapsed seconds [from, to) of every run, as the compare view's window",
    ),
    claim: HYPOTHESIS_FIELDS.claim.describe('the claim in your own words'),
  })
  .describe(
    'a claim stated before the runs start and decided when the experiment ends (docs/hypotheses.md)',
  );
export type RestHypothesis = z.output<typeof RestHypothesisSchema>;

const RestHypothesesSchema = z
  .array(RestHypothesisSchema)
  .max(MAX_HYPOTHESES, `at most ${MAX_HYPOTHESES} hypotheses per experiment`);

export const StartSavedSchema = z.strictObject({
  kind: z.literal('saved'),
  experiment: IdOrName.describe(
    'id or exact name of a saved experiment; its definition starts again as a new experiment',
  ),
  name: restName(120).optional().describe("name of the new experiment (default: the saved one's)"),
  repeats: RepeatsSchema.optional().describe('override the saved number of repeats'),
  loadGenerators: LoadGeneratorsSchema.optional().describe(
    'override the saved number of load generators per run',
  ),
  hypotheses: RestHypothesesSchema.optional().describe(
    "override the saved experiment's hypotheses (default: the same claims)",
  ),
  ...CiOriginFields,
});

export const UntilDecidedSchema = z
  .strictObject({
    maxRepeats: RepeatsSchema.describe('at most this many repeats per side'),
    metrics: z
      .array(z.enum(TESTED_RUN_METRIC_KEYS))
      .min(1)
      .optional()
      .describe(
        'the metrics decided on (default p95Ms, rps, errorRate); fewer decide sooner. Not with hypotheses: they say what is decided',
      ),
  })
  .describe(
    'with hypotheses: after each round the sequential rule (docs/metrics.md) decides each hypothesis, or one more round runs, up to maxRepeats; without: two pool configs, one scenario, the second config decided against the first',
  );

export const StartInlineSchema = z
  .strictObject({
    kind: z.literal('inline'),
    name: restName(120).default('CI run'),
    target: IdOrName.describe('id or exact name of a target of the team'),
    poolConfigs: z
      .array(IdOrName)
      .min(1, 'choose at least one pool config')
      .max(20)
      .describe('ids or names of pool configs of that target'),
    scenarioId: IdSchema.optional().describe('a saved scenario; or give `scenario`'),
    scenario: ScenarioSchema.optional().describe(
      'template and parameters; saved as a scenario row, reused when the same scenario was sent before',
    ),
    scenarioName: restName(120)
      .optional()
      .describe(
        'name of the scenario row for an inline scenario (default: made from its content, e.g. "Constant arrival rate 40 req/s · GET /work · 3 s · a51a6d")',
      ),
    repeats: RepeatsSchema.default(5).describe(
      'default 5: with the 4 default primary metrics fewer than 5 per side can never give a verdict (the cell is incomplete)',
    ),
    order: RunOrderSchema.default(DEFAULT_RUN_ORDER).describe(
      'how the pool configs take turns within each repeat (docs/metrics.md, "Run order"): counterbalanced (default) turns their order every repeat (A B, B A, …) so each runs first equally often; interleaved keeps it (A B, A B, …); blocked runs each config\'s repeats together (A A, B B)',
    ),
    loadGenerators: LoadGeneratorsSchema.default(1),
    hypotheses: RestHypothesesSchema.optional(),
    untilDecided: UntilDecidedSchema.optional(),
    ...CiOriginFields,
  })
  .refine((v) => (v.scenarioId === undefined) !== (v.scenario === undefined), {
    message: 'give exactly one of scenarioId and scenario',
    path: ['scenario'],
  })
  .meta({ oneOf: [{ required: ['scenarioId'] }, { required: ['scenario'] }] });

export const StartExperimentSchema = z.discriminatedUnion('kind', [
  StartSavedSchema,
  StartInlineSchema,
]);

export type StartExperiment = z.output<typeof StartExperimentSchema>;
