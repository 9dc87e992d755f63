/**
 * A Scenario row stores the template id, the rest of the scenario (params, request mix, ready
 * path) and the thresholds in separate columns; these two functions are the only mapping.
 */
export interface ScenarioColumns {
  templateId: string;
  params: Record<string, unknown>;
  thresholds: unknown[];
}

export function scenarioToColumns(scenario: { template: string; thresholds?: unknown[] } & Record<string, unknown>): ScenarioColumns {
  const { template, thresholds, ...rest } = scenario;
  return { templateId: template, params: rest, thresholds: thresholds ?? [] };
}

export function scenarioFromColumns(row: { templateId: string; params: unknown; thresholds: unknown }): Record<string, unknown> {
  return { template: row.templateId, ...(row.params as Record<string, unknown>), thresholds: row.thresholds ?? [] };
}
