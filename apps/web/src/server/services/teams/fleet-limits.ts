import type { Db } from '@poolbench/db';
import { FLEET_LIMIT_DEFAULTS, onlineWorkers, queuedLoad, teamFleetLimits } from '@poolbench/runs';

/** Upper bounds an admin may set; the defaults are in FLEET_LIMIT_DEFAULTS (docs/security.md). */
export const FLEET_LIMIT_BOUNDS = {
  maxRunsPerExperiment: 5000,
  maxQueuedLoadMinutes: 7 * 24 * 60,
} as const;

/** The team's fleet limits (its own or the defaults), what it has queued, and workers online. */
export async function getFleetLimits(db: Db, teamId: string) {
  const [limits, own, queued, online] = await Promise.all([
    teamFleetLimits(db, teamId),
    db.team.findUnique({
      where: { id: teamId },
      select: { maxRunsPerExperiment: true, maxQueuedLoadMinutes: true },
    }),
    queuedLoad(db, teamId),
    onlineWorkers(db),
  ]);
  return {
    ...limits,
    defaults: FLEET_LIMIT_DEFAULTS,
    custom: {
      maxRunsPerExperiment: own?.maxRunsPerExperiment ?? null,
      maxQueuedLoadMinutes: own?.maxQueuedLoadMinutes ?? null,
    },
    queuedRuns: queued.runs,
    queuedLoadMinutes: Math.ceil(queued.ms / 60_000),
    onlineWorkers: online,
  };
}

/** Sets the team's own limits (admins); null goes back to the default. */
export async function setFleetLimits(
  db: Db,
  teamId: string,
  input: { maxRunsPerExperiment: number | null; maxQueuedLoadMinutes: number | null },
) {
  await db.team.update({ where: { id: teamId }, data: input });
  return getFleetLimits(db, teamId);
}
