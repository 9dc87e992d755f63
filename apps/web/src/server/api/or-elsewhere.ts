import { TRPCError } from '@trpc/server';
import { notFound } from 'next/navigation';
import type { LocatableKind } from '~/lib/locatable-kinds';
import { serverCaller } from './server-caller';

/**
 * Like orNotFound, for pages a link may lead to from another team: when the object is not in the
 * active team but in another team of the user, the page renders anyway and its client component
 * names that team with a switch button. Anything else not found (no such id, or a team the user is
 * not in) is the 404 page, as before.
 */
export async function orNotFoundUnlessElsewhere(
  kind: LocatableKind,
  id: string,
  p: Promise<unknown>,
): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof TRPCError && (e.code === 'NOT_FOUND' || e.code === 'BAD_REQUEST'))) throw e;
    const located = await (await serverCaller()).team.locate({ kind, id }).catch(() => null);
    if (!located) notFound();
  }
}
