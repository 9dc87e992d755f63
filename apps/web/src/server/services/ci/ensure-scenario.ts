import { createHash } from 'node:crypto';
import type { Db } from '@poolbench/db';
import { scenarioFromColumns, scenarioRowData } from '@poolbench/db';
import { canonicalJson, parseScenario, type ScenarioInput } from '@poolbench/scenarios';
import { ConflictError } from '../errors';

/**
 * An inline scenario becomes a scenario row, and the same content sent again maps to the same row.
 * Baselines are keyed by target + scenario, so a CI job that sends its scenario inline on every
 * run must land on one scenario, or it could never be compared with its own history.
 */
export async function ensureScenario(
  db: Db,
  teamId: string,
  input: ScenarioInput,
  name?: string,
): Promise<string> {
  const scenario = parseScenario(input, 'scenario');
  const content = canonicalJson(scenario);
  const rowName = name ?? `api-${createHash('sha256').update(content).digest('hex').slice(0, 12)}`;
  const existing = await db.scenario.findFirst({
    where: { teamId, name: rowName, archivedAt: null },
    select: { id: true, templateId: true, params: true, thresholds: true },
  });
  if (existing) {
    if (canonicalJson(scenarioFromColumns(existing)) !== content) {
      throw new ConflictError(
        `a different scenario is already saved as "${rowName}"; choose another scenarioName or send its id`,
      );
    }
    return existing.id;
  }
  const created = await db.scenario
    .create({ data: { teamId, name: rowName, ...scenarioRowData(scenario) }, select: { id: true } })
    .catch(async (err: unknown) => {
      // two CI jobs sending the same new scenario at once: the loser uses the winner's row
      const again = await db.scenario.findFirst({
        where: { teamId, name: rowName, archivedAt: null },
        select: { id: true },
      });
      if (again) return again;
      throw err;
    });
  return created.id;
}
