import type { Preset, PresetPoolConfig, PresetScenario } from './preset-schema';

/**
 * Worker time per run besides the load itself (target start, k6 start-up, finalize): seed 004's 15
 * runs took 141 s for ~134 s of load on the 2-core machine (make seeds SEEDS=004, 2026-11-23).
 */
export const RUN_OVERHEAD_MS = 1000;

export interface SeedPlan {
  preset: Preset;
  /** only the cells the seed's claims name: the rest of the preset is for exploring, not for deciding */
  poolConfigs: PresetPoolConfig[];
  scenarios: PresetScenario[];
  runs: number;
  estimatedMs: number;
}

/**
 * What `make seeds` launches for one seed preset: the pool configs and scenarios its hypotheses
 * name, in the preset's order, `preset.repeats` times each, counterbalanced (`launchSeeds`).
 */
export function seedPlan(preset: Preset): SeedPlan {
  const configNames = new Set(
    preset.hypotheses.flatMap((h) => [h.base.poolConfig, h.candidate.poolConfig]),
  );
  const scenarioIds = new Set(
    preset.hypotheses.flatMap((h) => [h.base.scenario, h.candidate.scenario]),
  );
  const poolConfigs = preset.poolConfigs.filter((c) => configNames.has(c.name));
  const scenarios = preset.scenarios.filter((s) => scenarioIds.has(s.id));
  const missing = [...configNames]
    .filter((n) => !poolConfigs.some((c) => c.name === n))
    .concat([...scenarioIds].filter((id) => !scenarios.some((s) => s.id === id)));
  if (missing.length > 0)
    throw new RangeError(
      `${preset.id}: hypotheses name cells the preset does not have: ${missing.join(', ')}`,
    );
  const perRep = scenarios.reduce(
    (ms, s) => ms + (s.estimatedDurationMs + RUN_OVERHEAD_MS) * poolConfigs.length,
    0,
  );
  return {
    preset,
    poolConfigs,
    scenarios,
    runs: poolConfigs.length * scenarios.length * preset.repeats,
    estimatedMs: perRep * preset.repeats,
  };
}
