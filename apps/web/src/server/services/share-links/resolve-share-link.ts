import { readJson, type Db } from '@poolbench/db';
import { SelectionSchema, type Selection } from '~/lib/compare/selection';
import { hashShareToken, SHARE_TOKEN_PATTERN } from './token';

export interface ResolvedShareLink {
  id: string;
  teamId: string;
  kind: 'run' | 'comparison' | 'experiment';
  runId: string | null;
  experimentId: string | null;
  selection: Selection | null;
  title: string;
  expiresAt: Date | null;
}

/** The live link for a token, or null when it is unknown, revoked or expired (all look the same). */
export async function resolveShareLink(db: Db, token: string, opts: { count?: boolean } = {}): Promise<ResolvedShareLink | null> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return null;
  const link = await db.shareLink.findUnique({
    where: { tokenHash: hashShareToken(token) },
    select: { id: true, teamId: true, kind: true, runId: true, experimentId: true, selection: true, title: true, expiresAt: true, revokedAt: true },
  });
  if (!link || link.revokedAt || (link.expiresAt && link.expiresAt <= new Date())) return null;
  if (opts.count) await db.shareLink.update({ where: { id: link.id }, data: { accessCount: { increment: 1 }, lastAccessedAt: new Date() } });
  return { id: link.id, teamId: link.teamId, kind: link.kind, runId: link.runId, experimentId: link.experimentId, selection: readJson(SelectionSchema, link.selection, { model: 'ShareLink', column: 'selection', id: link.id }), title: link.title, expiresAt: link.expiresAt };
}
