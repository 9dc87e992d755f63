import type { Db } from '@poolbench/db';
import { NotFoundError } from '../errors';
import type { LocatableKind } from '~/lib/locatable-kinds';

/**
 * Which of the caller's teams holds an object a link points to, so a page opened while another
 * team is active can say so and offer to switch. An object of a team the caller is not in is
 * NOT_FOUND, exactly like one that does not exist: no name, no hint that it exists.
 */
export async function locateObject(
  db: Db,
  userId: string,
  input: { kind: LocatableKind; id: string },
): Promise<{ teamId: string; teamName: string }> {
  const where = { id: input.id, team: { memberships: { some: { userId } } } };
  const select = { team: { select: { id: true, name: true } } };
  const row =
    input.kind === 'run'
      ? await db.run.findFirst({ where, select })
      : input.kind === 'experiment'
        ? await db.experiment.findFirst({ where, select })
        : input.kind === 'target'
          ? await db.target.findFirst({ where, select })
          : input.kind === 'scenario'
            ? await db.scenario.findFirst({ where, select })
            : await db.schedule.findFirst({ where, select });
  if (!row) throw new NotFoundError(input.kind);
  return { teamId: row.team.id, teamName: row.team.name };
}
