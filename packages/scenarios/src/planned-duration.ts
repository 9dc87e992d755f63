import { ScenarioSchema } from './scenario-schema';
import { isScriptScenario, scriptPlannedMs, ScriptScenarioSchema } from './script-scenario';
import { planScenario } from './templates/registry';

/**
 * A stored scenario's planned load time in ms, template or a team's k6 script (its scenarios'
 * total as k6 inspected it, capped by maxDurationMs); null when it no longer parses.
 */
export function scenarioPlannedMs(input: unknown): number | null {
  if (isScriptScenario(input)) {
    const s = ScriptScenarioSchema.safeParse(input);
    return s.success ? scriptPlannedMs(s.data) : null;
  }
  const s = ScenarioSchema.safeParse(input);
  return s.success ? planScenario(s.data).estimatedDurationMs : null;
}
