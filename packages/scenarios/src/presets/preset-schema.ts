import { z } from 'zod';
import { ScenarioSchema } from '../scenario-schema';
import { PoolConfigSchema } from '../pool/pool-config-schema';
import { PresetHypothesisSchema } from '../hypotheses/hypothesis-schema';

export const SEED_IDS = ['000', '001', '002', '003', '004'] as const;

export const ScaleSchema = z
  .number({ error: 'must be a number' })
  .gt(0, 'must be greater than 0')
  .lte(1, 'must be at most 1 (1 = the original parameters)');

export const PresetScenarioSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** the seed's own parameters for this scenario, quoted */
  original: z.string(),
  scenario: ScenarioSchema,
  estimatedDurationMs: z.number(),
});

export const PresetPoolConfigSchema = z.object({
  name: z.string(),
  config: PoolConfigSchema,
});

/** A ready-made experiment reproducing one seed write-up at a given scale. */
export const PresetSchema = z.object({
  id: z.string(),
  title: z.string(),
  seed: z.enum(SEED_IDS),
  description: z.string(),
  /** what `scale` shrinks in this preset and what it leaves alone */
  scaling: z.string(),
  scale: ScaleSchema,
  defaultScale: ScaleSchema,
  repeats: z.number().int().min(1),
  /** the scale `make seeds` (and the Seeds page's Reproduce) runs this preset at unless SCALE says otherwise */
  seedsScale: ScaleSchema,
  /** the seed's claims, stated before any run and decided by the product when the experiment ends */
  hypotheses: z.array(PresetHypothesisSchema).max(10),
  scenarios: z.array(PresetScenarioSchema).min(1),
  poolConfigs: z.array(PresetPoolConfigSchema).min(1),
});

export type Preset = z.infer<typeof PresetSchema>;
export type PresetScenario = z.infer<typeof PresetScenarioSchema>;
export type PresetPoolConfig = z.infer<typeof PresetPoolConfigSchema>;
