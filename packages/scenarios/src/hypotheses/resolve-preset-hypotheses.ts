import type { Hypothesis, PresetHypothesis } from './hypothesis-schema';

/**
 * Turns a preset's hypotheses into an experiment's, once the preset's pool configs and scenarios
 * exist as rows: names and preset scenario ids become ids. Throws a RangeError naming the
 * hypothesis and field when a name is not among the preset's.
 */
export function resolvePresetHypotheses(
  hypotheses: readonly PresetHypothesis[],
  poolConfigIdByName: ReadonlyMap<string, string>,
  scenarioIdByPresetId: ReadonlyMap<string, string>,
): Hypothesis[] {
  return hypotheses.map((h, i) => {
    const cell = (side: 'base' | 'candidate') => {
      const c = h[side];
      const poolConfigId = poolConfigIdByName.get(c.poolConfig);
      if (!poolConfigId)
        throw new RangeError(
          `hypotheses.${i}.${side}.poolConfig: "${c.poolConfig}" is not a pool config of this preset`,
        );
      const scenarioId = scenarioIdByPresetId.get(c.scenario);
      if (!scenarioId)
        throw new RangeError(
          `hypotheses.${i}.${side}.scenario: "${c.scenario}" is not a scenario of this preset`,
        );
      return { poolConfigId, scenarioId };
    };
    const { base: _b, candidate: _c, ...rest } = h;
    return { ...rest, base: cell('base'), candidate: cell('candidate') };
  });
}
