import { ScenarioSchema } from './scenario-schema';
import { isScriptScenario, ScriptScenarioSchema } from './script-scenario';
import { planScenario } from './templates/registry';
import type { TemplatePlan } from './templates/template-plan';

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

/**
 * The iterations an open-model plan asks k6 to start: the integral of its rate profile, linear
 * between points as k6's arrival-rate executors ramp (a 0 s step is a jump); null for a closed
 * model, whose VUs set no rate.
 */
export function plannedIterations(plan: TemplatePlan): number | null {
  if (plan.closedModel) return null;
  let n = 0;
  for (let i = 1; i < plan.profile.length; i++) {
    const a = plan.profile[i - 1]!;
    const b = plan.profile[i]!;
    n += ((b.tSec - a.tSec) * ((a.rate ?? 0) + (b.rate ?? 0))) / 2;
  }
  return n;
}
