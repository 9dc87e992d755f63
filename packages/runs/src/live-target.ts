import { NotFoundError, type DbOrTx, type Prisma } from '@poolbench/db';

/**
 * A target the team may use: its own and not archived. Anything else (another team's id, an
 * archived one, no such id) is NOT_FOUND alike, so an id tells nobody whether it exists. The whole
 * row, or the fields `select` names.
 */
export async function liveTarget(
  db: DbOrTx,
  teamId: string,
  id: string,
): Promise<Prisma.TargetGetPayload<object>>;
export async function liveTarget<S extends Prisma.TargetSelect>(
  db: DbOrTx,
  teamId: string,
  id: string,
  select: S,
): Promise<Prisma.TargetGetPayload<{ select: S }>>;
export async function liveTarget(
  db: DbOrTx,
  teamId: string,
  id: string,
  select?: Prisma.TargetSelect,
): Promise<unknown> {
  const target = await db.target.findFirst({
    where: { id, teamId, archivedAt: null },
    ...(select ? { select } : {}),
  });
  if (!target) throw new NotFoundError('target');
  return target;
}
