import type { Db } from '@poolbench/db';
import { NotFoundError } from '../errors';

export async function updateRunNotes(db: Db, teamId: string, input: { id: string; notes: string }) {
  const r = await db.run.updateMany({
    where: { id: input.id, teamId },
    data: { notes: input.notes.trim() === '' ? null : input.notes },
  });
  if (r.count === 0) throw new NotFoundError('run');
}
