import { toJson } from '../json/to-json';
import { ScenarioParamsSchema, ScenarioThresholdsSchema } from '../json/column-schemas';

/**
 * A Scenario row stores the template id, the rest of the scenario (params, request mix, ready
 * path) and the thresholds in separate columns; these functions are the only mapping, used by
 * every place that saves or reads a scenario (services, seed, presets, CI, test fixtures).
 */
export interface ScenarioColumns {
  templateId: string;
  params: Record<string, unknown>;
  thresholds: unknown[];
}

export function scenarioToColumns<S extends { template: string; thresholds?: readonly unknown[] }>(
  scenario: S,
): ScenarioColumns {
  const { template, thresholds, ...rest } = scenario;
  return {
    templateId: template,
    params: ScenarioParamsSchema.parse(rest),
    thresholds: [...(thresholds ?? [])],
  };
}

/** The data of a Scenario row for a scenario, each JSON column checked against its schema. */
export function scenarioRowData<S extends { template: string; thresholds?: readonly unknown[] }>(
  scenario: S,
) {
  const cols = scenarioToColumns(scenario);
  return {
    templateId: cols.templateId,
    params: toJson.scenarioParams(cols.params),
    thresholds: toJson.scenarioThresholds(cols.thresholds),
  };
}

/** The scenario back from its columns (raw or already parsed): what ScenarioSchema validates. */
export function scenarioFromColumns(row: {
  templateId?: string;
  params?: unknown;
  thresholds?: unknown;
}): Record<string, unknown> {
  const params = ScenarioParamsSchema.safeParse(row.params ?? {});
  const thresholds = ScenarioThresholdsSchema.safeParse(row.thresholds ?? []);
  return {
    template: row.templateId,
    ...(params.success ? params.data : {}),
    thresholds: thresholds.success ? thresholds.data : row.thresholds,
  };
}
