import type { Db } from '@poolbench/db';
import { AppError, InvalidInputError, NotFoundError } from '../errors';

/** `; the targets are "a", "b"` (up to 10): what a name that was not found could have been. */
function choices(what: string, names: string[]): string {
  if (names.length === 0) return `; there are no ${what} yet`;
  const shown = names.slice(0, 10).map((n) => `"${n}"`);
  return `; the ${what} are ${shown.join(', ')}${names.length > 10 ? `, … (${names.length} in all)` : ''}`;
}

/** Ids first, then exact names: CI files read better with names, and ids never look like names. */
export async function resolveTarget(db: Db, teamId: string, idOrName: string) {
  const t =
    (await db.target.findFirst({
      where: { id: idOrName, teamId, archivedAt: null },
      select: { id: true, name: true },
    })) ??
    (await db.target.findFirst({
      where: { name: idOrName, teamId, archivedAt: null },
      select: { id: true, name: true },
    }));
  if (!t) {
    const all = await db.target.findMany({
      where: { teamId, archivedAt: null },
      select: { name: true },
      orderBy: { name: 'asc' },
    });
    const names = all.map((x) => x.name);
    throw new AppError('not_found', `target "${idOrName}" not found${choices('targets', names)}`);
  }
  return t;
}

export async function resolvePoolConfigs(db: Db, teamId: string, targetId: string, refs: string[]) {
  const rows = await db.poolConfig.findMany({
    where: {
      teamId,
      targetId,
      archivedAt: null,
      OR: [{ id: { in: refs } }, { name: { in: refs } }],
    },
    select: { id: true, name: true },
  });
  const missing = refs.find((ref) => !rows.some((r) => r.id === ref || r.name === ref));
  if (missing !== undefined) {
    const all = await db.poolConfig.findMany({
      where: { teamId, targetId, archivedAt: null },
      select: { name: true },
      orderBy: { name: 'asc' },
    });
    const names = all.map((x) => x.name);
    throw new AppError(
      'not_found',
      `pool config "${missing}" of this target not found${choices('pool configs of this target', names)}`,
    );
  }
  const ids = refs.map(
    (ref) => (rows.find((r) => r.id === ref) ?? rows.find((r) => r.name === ref))!.id,
  );
  if (new Set(ids).size !== ids.length)
    throw new InvalidInputError('poolConfigs', 'names the same pool config twice');
  return ids;
}

/** A saved experiment by id, else the newest one with that exact name (reruns share names). */
export async function resolveExperiment(db: Db, teamId: string, idOrName: string) {
  const byId = await db.experiment.findFirst({
    where: { id: idOrName, teamId },
    select: { id: true },
  });
  if (byId) return byId.id;
  const byName = await db.experiment.findFirst({
    where: { name: idOrName, teamId },
    orderBy: { createdAt: 'desc' },
    select: { id: true },
  });
  if (!byName) throw new NotFoundError(`experiment "${idOrName}"`);
  return byName.id;
}

/** A live saved scenario by id, else by exact name. */
export async function resolveScenario(db: Db, teamId: string, idOrName: string) {
  const s =
    (await db.scenario.findFirst({
      where: { id: idOrName, teamId, archivedAt: null },
      select: { id: true, name: true },
    })) ??
    (await db.scenario.findFirst({
      where: { name: idOrName, teamId, archivedAt: null },
      select: { id: true, name: true },
    }));
  if (!s) {
    const all = await db.scenario.findMany({
      where: { teamId, archivedAt: null },
      select: { name: true },
      orderBy: { name: 'asc' },
    });
    throw new AppError(
      'not_found',
      `scenario "${idOrName}" not found${choices(
        'scenarios',
        all.map((x) => x.name),
      )}`,
    );
  }
  return s;
}
