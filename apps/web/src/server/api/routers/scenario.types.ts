import { z } from 'zod';
import { POOL_STRATEGIES, SEED_IDS, TEMPLATE_IDS, ThresholdSchema } from '@poolbench/scenarios';

/** Response schemas of the scenario procedures (documenso's `.types.ts` pattern). */
export const ScenarioViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  templateId: z.string(),
  /** `seed-…#scenario` when the scenario came from a preset */
  presetId: z.string().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  /**
   * The row as a ScenarioSchema value (scenarioFromColumns). Not re-validated here: a row saved
   * under older rules must still open in the editor, which validates it before saving.
   */
  scenario: z.record(z.string(), z.unknown()),
  /** null when the stored scenario no longer plans (the editor says why) */
  estimatedDurationMs: z.number().nullable(),
  maxVUs: z.number().nullable(),
});

export const ScenarioListSchema = z.array(ScenarioViewSchema);
export const ScenarioArchivedSchema = z.void();

/** Preset cards: presets without their full scenarios. */
export const PresetCardsSchema = z.array(
  z.object({
    id: z.string(),
    title: z.string(),
    seed: z.enum(SEED_IDS),
    description: z.string(),
    scaling: z.string(),
    defaultScale: z.number(),
    repeats: z.number().int(),
    scenarios: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        original: z.string(),
        template: z.enum(TEMPLATE_IDS),
        estimatedDurationMs: z.number(),
      }),
    ),
    poolConfigs: z.array(z.object({ name: z.string(), strategy: z.enum(POOL_STRATEGIES) })),
  }),
);

/** What the experiment form preselects after a preset was applied. */
export const PresetAppliedSchema = z.object({
  presetId: z.string(),
  title: z.string(),
  repeats: z.number().int(),
  targetId: z.string(),
  scenarioIds: z.array(z.string()),
  poolConfigIds: z.array(z.string()),
});

/** A team's k6 script checked in the sandbox: what k6 resolved, or its error. */
export const ScriptInspectionSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    inspected: z.object({
      options: z.record(z.string(), z.unknown()),
      maxVUs: z.number().optional(),
      totalDuration: z.string().optional(),
      archiveBytes: z.number().optional(),
    }),
    scenarios: z.array(z.object({ name: z.string(), executor: z.string(), shape: z.string() })),
    thresholds: z.object({
      applied: z.array(ThresholdSchema),
      skipped: z.array(z.object({ metric: z.string(), expr: z.string(), reason: z.string() })),
    }),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
