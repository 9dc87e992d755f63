import { ScenarioSchema } from './scenario-schema';
import { isScriptScenario, ScriptScenarioSchema } from './script-scenario';
import { planScenario } from './templates/registry';

/**
 * A stored scenario's planned load time in ms, the time a run of it may hold a load generator: a
 * template's length, or a team's k6 script's stop time (the run is stopped then, whatever the
 * script's own scenarios, setup or teardown say); null when it no longer parses.
 */
export function scenarioPlannedMs(input: unknown): number | null {
  if (isScriptScenario(input)) {
    const s = ScriptScenarioSchema.safeParse(input);
    return s.success ? s.data.maxDurationMs : null;
  }
  const s = ScenarioSchema.safeParse(input);
  return s.success ? planScenario(s.data).estimatedDurationMs : null;
}
