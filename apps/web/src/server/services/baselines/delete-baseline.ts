import type { Db } from '@poolbench/db';
import { NotFoundError } from '../errors';

export async function deleteBaseline(db: Db, teamId: string, id: string) {
  const r = await db.baseline.deleteMany({ where: { id, teamId } });
  if (r.count === 0) throw new NotFoundError('baseline');
}
