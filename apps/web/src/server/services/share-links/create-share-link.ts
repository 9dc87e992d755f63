import { writeJson, type Db } from '@poolbench/db';
import { NotFoundError } from '../errors';
import { loadGroups } from '../compare/load-groups';
import { SelectionSchema, type Selection } from '~/lib/compare/selection';
import { generateShareToken, hashShareToken } from './token';

export type ShareTarget =
  | { kind: 'run'; runId: string }
  | { kind: 'experiment'; experimentId: string }
  | { kind: 'comparison'; selection: Selection };

/**
 * Creates a link that shows one run, one experiment or one comparison (the exact selection) to
 * anyone holding the token. The token is returned once and only its sha256 is stored.
 */
export async function createShareLink(
  db: Db,
  teamId: string,
  userId: string,
  input: { target: ShareTarget; title: string; expiresInDays?: number | null },
) {
  const { target } = input;
  if (target.kind === 'run') {
    const run = await db.run.findFirst({
      where: { id: target.runId, teamId },
      select: { id: true },
    });
    if (!run) throw new NotFoundError('run');
  } else if (target.kind === 'experiment') {
    const e = await db.experiment.findFirst({
      where: { id: target.experimentId, teamId },
      select: { id: true },
    });
    if (!e) throw new NotFoundError('experiment');
  } else {
    await loadGroups(db, teamId, target.selection.items); // every item must be this team's
  }
  const token = generateShareToken();
  const link = await db.shareLink.create({
    data: {
      teamId,
      kind: target.kind,
      tokenHash: hashShareToken(token),
      runId: target.kind === 'run' ? target.runId : null,
      experimentId: target.kind === 'experiment' ? target.experimentId : null,
      selection:
        target.kind === 'comparison'
          ? writeJson(SelectionSchema, target.selection, {
              model: 'ShareLink',
              column: 'selection',
            })
          : undefined,
      title: input.title,
      expiresAt: input.expiresInDays
        ? new Date(Date.now() + input.expiresInDays * 86_400_000)
        : null,
      createdById: userId,
    },
    select: { id: true, kind: true, title: true, expiresAt: true, createdAt: true },
  });
  return { ...link, token, path: `/share/${token}` };
}
