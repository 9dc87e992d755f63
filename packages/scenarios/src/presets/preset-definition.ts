import type { ScenarioInput } from '../scenario-schema';
import type { PoolConfigInput } from '../pool/pool-config-schema';
import type { Preset } from './preset-schema';
import type { PresetHypothesis } from '../hypotheses/hypothesis-schema';

/** Presets are code: `build(scale)` returns the scenarios and pool configs at that scale. */
export interface PresetDefinition extends Omit<
  Preset,
  'scale' | 'scenarios' | 'poolConfigs' | 'hypotheses'
> {
  /** by pool config name and preset scenario id, the same at every scale */
  hypotheses: PresetHypothesis[];
  build(scale: number): {
    scenarios: Array<{ id: string; label: string; original: string; scenario: ScenarioInput }>;
    poolConfigs: Array<{ name: string; config: PoolConfigInput }>;
  };
}

/** Load (VUs, rates, counts, connections) scaled, never below `min`. */
export function scaleCount(n: number, scale: number, min = 1): number {
  return Math.max(min, Math.round(n * scale));
}

/** Durations scaled, never below `minMs` (0 keeps instant ramps possible). */
export function scaleMs(ms: number, scale: number, minMs = 1000): number {
  return Math.max(minMs, Math.round(ms * scale));
}

export const KB = 1024;
export const MB = 1024 * 1024;
