import type { Db } from '@poolbench/db';
import { NotFoundError } from '../errors';

export async function getRun(db: Db, teamId: string, id: string) {
  const run = await db.run.findFirst({
    where: { id, teamId },
    select: {
      id: true, status: true, repeatIndex: true, sequence: true, createdAt: true, queuedAt: true, preparingAt: true, startedAt: true, finishedAt: true,
      cancelRequestedAt: true, workerId: true, environment: true, errorCode: true, errorMessage: true, summary: true, thresholdResults: true, notes: true, script: true,
      poolConfigSnapshot: true, scenarioSnapshot: true, targetSnapshot: true,
      experiment: { select: { id: true, name: true, repeats: true } },
      target: { select: { id: true, name: true, kind: true } },
    },
  });
  if (!run) throw new NotFoundError('run');
  return run;
}
