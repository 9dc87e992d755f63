import { notFound } from 'next/navigation';
import { db } from '../db';
import { cachedTeam } from '../auth-cache';
import { getSession } from '../session';
import { processWide } from '../process-wide';
import { LruCache } from '../services/cache/finished-data-cache';
import { locateObject } from '../services/teams/locate-object';
import { isId } from '~/lib/schemas/ids';

/** The pages whose HTML is a shell (their client components load the object itself). */
export type ShellPageKind = 'run' | 'experiment';

/** Which team a run or an experiment belongs to: it never moves, so a found one is kept. */
const owners = processWide('page-owners', () => new LruCache<string>(10_000));

async function ownerTeam(kind: ShellPageKind, id: string): Promise<string | null> {
  const key = `${kind}:${id}`;
  const held = owners.get(key);
  if (held) return held;
  const select = { teamId: true } as const;
  const row =
    kind === 'run'
      ? await db.run.findUnique({ where: { id }, select })
      : await db.experiment.findUnique({ where: { id }, select });
  if (row) owners.set(key, row.teamId);
  return row?.teamId ?? null;
}

/**
 * Whether a run's or an experiment's page renders for this request: the object is in the active
 * team, or in another team of the user (a link from elsewhere: the page's client component names
 * that team with a switch button). Anything else (no such id, or a team the user is not in) is the
 * 404 page. The session and team come from the authorization cache and the object's team from a
 * kept lookup, so a page costs no read of its data; the client component loads that from the
 * cached data routes, which authorize each request themselves.
 */
export async function orNotFoundUnlessElsewhere(kind: ShellPageKind, id: string): Promise<void> {
  if (!isId(id)) notFound();
  const session = await getSession();
  if (!session) notFound();
  const [team, owner] = await Promise.all([
    cachedTeam(db, session.user.id, session.activeTeamId),
    ownerTeam(kind, id),
  ]);
  if (!owner) notFound();
  if (team?.id === owner) return;
  const elsewhere = await locateObject(db, session.user.id, { kind, id }).catch(() => null);
  if (!elsewhere) notFound();
}
