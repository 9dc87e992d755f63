import { parseTarget, type Db } from '@poolbench/db';
import { liveTarget } from '@poolbench/runs';
import { NotFoundError } from '../errors';
import { TARGET_SELECT } from './target-view';

export async function listTargets(db: Db, teamId: string) {
  const rows = await db.target.findMany({
    where: { teamId, archivedAt: null },
    select: {
      ...TARGET_SELECT,
      _count: { select: { poolConfigs: { where: { archivedAt: null } }, runs: true } },
    },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map(({ _count, ...t }) => ({
    ...parseTarget(t),
    poolConfigCount: _count.poolConfigs,
    runCount: _count.runs,
  }));
}

export async function getTarget(db: Db, teamId: string, id: string) {
  return parseTarget(await liveTarget(db, teamId, id, TARGET_SELECT));
}

export async function archiveTarget(db: Db, teamId: string, id: string) {
  const r = await db.target.updateMany({
    where: { id, teamId, archivedAt: null },
    data: { archivedAt: new Date() },
  });
  if (r.count === 0) throw new NotFoundError('target');
}
