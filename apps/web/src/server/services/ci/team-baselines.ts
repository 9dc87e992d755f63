import type { Db } from '@poolbench/db';
import { NotFoundError } from '../errors';
import { deleteBaseline } from '../baselines/delete-baseline';
import { listBaselines } from '../baselines/list-baselines';
import { resolveScenario, resolveTarget } from './resolve-refs';

type Row = Awaited<ReturnType<typeof listBaselines>>[number];

const view = (b: Row) => ({
  id: b.id,
  name: b.name,
  target: { id: b.targetId, name: b.target.name },
  scenario: { id: b.scenarioId, name: b.scenario.name },
  experimentId: b.experimentId,
  poolConfig:
    b.poolConfigId && b.poolConfig ? { id: b.poolConfigId, name: b.poolConfig.name } : null,
  runId: b.runId,
  updatedAt: b.updatedAt.toISOString(),
});

/** The team's saved baselines, newest first, narrowed by target, scenario (id or name) and name. */
export async function listTeamBaselines(
  db: Db,
  teamId: string,
  filter: { target?: string; scenario?: string; name?: string },
) {
  const targetId = filter.target ? (await resolveTarget(db, teamId, filter.target)).id : null;
  const scenarioId = filter.scenario
    ? (await resolveScenario(db, teamId, filter.scenario)).id
    : null;
  const rows = await listBaselines(db, teamId, { targetId, scenarioId });
  return {
    baselines: rows.filter((b) => filter.name === undefined || b.name === filter.name).map(view),
  };
}

/** Removes one of the team's baselines and answers what it was; another team's id is not found. */
export async function removeTeamBaseline(db: Db, teamId: string, id: string) {
  const [row] = await listBaselines(db, teamId, { id });
  if (!row) throw new NotFoundError(`baseline "${id}"`);
  await deleteBaseline(db, teamId, id);
  return { removed: view(row) };
}
