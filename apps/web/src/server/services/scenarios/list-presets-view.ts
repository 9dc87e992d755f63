import { listPresets } from '@poolbench/scenarios';

/** Presets without their full scenarios: what the preset cards need. */
export function listPresetCards() {
  return listPresets().map((p) => ({
    id: p.id,
    title: p.title,
    seed: p.seed,
    description: p.description,
    scaling: p.scaling,
    defaultScale: p.defaultScale,
    repeats: p.repeats,
    scenarios: p.scenarios.map((s) => ({
      id: s.id,
      label: s.label,
      original: s.original,
      template: s.scenario.template,
      estimatedDurationMs: s.estimatedDurationMs,
    })),
    poolConfigs: p.poolConfigs.map((c) => ({ name: c.name, strategy: c.config.strategy })),
  }));
}
