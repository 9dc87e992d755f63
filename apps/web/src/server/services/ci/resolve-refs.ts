import type { Db } from '@poolbench/db';
import { InvalidInputError, NotFoundError } from '../errors';

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
  if (!t) throw new NotFoundError(`target "${idOrName}"`);
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
  const ids = refs.map((ref) => {
    const row = rows.find((r) => r.id === ref) ?? rows.find((r) => r.name === ref);
    if (!row) throw new NotFoundError(`pool config "${ref}" of this target`);
    return row.id;
  });
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
