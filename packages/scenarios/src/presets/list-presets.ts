import { generateScenario } from '../generate-scenario';
import { ScenarioSchema } from '../scenario-schema';
import { PoolConfigSchema } from '../pool/pool-config-schema';
import { PresetHypothesisSchema } from '../hypotheses/hypothesis-schema';
import type { PresetDefinition } from './preset-definition';
import { ScaleSchema, type Preset } from './preset-schema';
import { poolSizeCollapses, smallestDistinctScale } from './pool-scale';
import { AppError } from '@poolbench/contracts';
import { z } from 'zod';

// Wrapped so a bad scale is reported at path `scale`.
const ScaleInputSchema = z.object({ scale: ScaleSchema });
import { seed000Tc1, seed000Tc2, seed000Tc3, seed000Tc4 } from './seed-000';
import { seed001 } from './seed-001';
import { seed001Runtimes } from './seed-001-runtimes';
import { seed002 } from './seed-002';
import { seed003 } from './seed-003';
import { seed003Hikari } from './seed-003-hikari';
import { seed004 } from './seed-004';

const DEFINITIONS: PresetDefinition[] = [
  seed000Tc1,
  seed000Tc2,
  seed000Tc3,
  seed000Tc4,
  seed001,
  seed001Runtimes,
  seed002,
  seed003,
  seed003Hikari,
  seed004,
];

/** What a scale loses of the seed's pool sizes (see poolSizeCollapses). */
function collapsesAt(def: PresetDefinition, scale: number): string[] {
  return poolSizeCollapses(def.build(1).poolConfigs, def.build(scale).poolConfigs);
}

function build(def: PresetDefinition, scale: number): Preset {
  const { build: make, ...meta } = def;
  const lost = collapsesAt(def, scale);
  if (lost.length > 0) {
    const ok = smallestDistinctScale(scale, (s) => collapsesAt(def, s));
    const message = `at scale ${scale} ${def.id} no longer tells its pool sizes apart: ${lost.join('; ')}${ok === null ? '' : `. The smallest scale that keeps them apart is ${ok}`}`;
    throw new AppError('validation_failed', `scale: ${message}`, {
      problems: [{ path: 'scale', message }],
    });
  }
  const built = make(scale);
  return {
    ...meta,
    scale,
    scenarios: built.scenarios.map((s) => ({
      ...s,
      scenario: ScenarioSchema.parse(s.scenario),
      estimatedDurationMs: generateScenario(s.scenario).estimatedDurationMs,
    })),
    poolConfigs: built.poolConfigs.map((p) => ({
      name: p.name,
      config: PoolConfigSchema.parse(p.config),
    })),
    hypotheses: def.hypotheses.map((h) => PresetHypothesisSchema.parse(h)),
  };
}

/** Every seed preset at its default scale. */
export function listPresets(): Preset[] {
  return DEFINITIONS.map((d) => build(d, d.defaultScale));
}

export function presetIds(): string[] {
  return DEFINITIONS.map((d) => d.id);
}

/** A preset by id at a scale (default: its default scale); undefined for an unknown id. */
export function getPreset(id: string, scale?: number): Preset | undefined {
  const def = DEFINITIONS.find((d) => d.id === id);
  return def
    ? build(def, ScaleInputSchema.parse({ scale: scale ?? def.defaultScale }).scale)
    : undefined;
}

/**
 * The preset rebuilt at another scale (0 < scale <= 1; 1 = the seed's original parameters).
 * Throws a ZodError naming `scale` when out of range, an AppError (validation_failed, at `scale`)
 * when the scale makes two pool sizes the seed tells apart equal, an Error for an unknown id.
 */
export function applyScale(preset: Pick<Preset, 'id'> | string, scale: number): Preset {
  const id = typeof preset === 'string' ? preset : preset.id;
  const def = DEFINITIONS.find((d) => d.id === id);
  if (!def) throw new Error(`unknown preset "${id}"; known: ${presetIds().join(', ')}`);
  return build(def, ScaleInputSchema.parse({ scale }).scale);
}
