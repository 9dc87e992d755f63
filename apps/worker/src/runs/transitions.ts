import type { Db, Prisma, RunStatus } from '@poolbench/db';

/**
 * Every run transition is a conditional UPDATE on the current status (and on the claiming
 * worker), so a job delivered twice, a sweeper and a late worker can never both win: whoever's
 * UPDATE matches first owns the transition; the others see count 0 and back off.
 */
export type TerminalStatus = Extract<RunStatus, 'succeeded' | 'failed' | 'canceled' | 'timed_out' | 'aborted_system'>;

export async function claimRun(db: Db, runId: string, workerId: string): Promise<boolean> {
  const now = new Date();
  const r = await db.run.updateMany({
    where: { id: runId, status: 'queued', cancelRequestedAt: null },
    data: { status: 'preparing', preparingAt: now, heartbeatAt: now, workerId },
  });
  return r.count === 1;
}

export async function markRunning(db: Db, runId: string, workerId: string, data: { script: string; environment: Prisma.InputJsonValue }): Promise<boolean> {
  const now = new Date();
  const r = await db.run.updateMany({
    where: { id: runId, status: 'preparing', workerId },
    data: { status: 'running', startedAt: now, heartbeatAt: now, script: data.script, environment: data.environment },
  });
  return r.count === 1;
}

export async function heartbeatRun(db: Db, runId: string, workerId: string): Promise<{ alive: boolean; cancelRequested: boolean }> {
  const r = await db.run.updateMany({
    where: { id: runId, workerId, status: { in: ['preparing', 'running'] } },
    data: { heartbeatAt: new Date() },
  });
  if (r.count === 0) return { alive: false, cancelRequested: false };
  const row = await db.run.findUnique({ where: { id: runId }, select: { cancelRequestedAt: true } });
  return { alive: true, cancelRequested: row?.cancelRequestedAt != null };
}

export interface FinishData {
  status: TerminalStatus;
  errorCode?: string | null;
  errorMessage?: string | null;
  summary?: Prisma.InputJsonValue;
  thresholdResults?: Prisma.InputJsonValue;
  durationHist?: Uint8Array<ArrayBuffer> | null;
  blockedHist?: Uint8Array<ArrayBuffer> | null;
}

/** Ends a run this worker owns. Returns false when someone else already ended it. */
export async function finishRun(db: Db, runId: string, workerId: string, data: FinishData): Promise<boolean> {
  const r = await db.run.updateMany({
    where: { id: runId, workerId, status: { in: ['preparing', 'running'] } },
    data: {
      status: data.status,
      finishedAt: new Date(),
      errorCode: data.errorCode ?? null,
      errorMessage: data.errorMessage ?? null,
      ...(data.summary !== undefined ? { summary: data.summary } : {}),
      ...(data.thresholdResults !== undefined ? { thresholdResults: data.thresholdResults } : {}),
      ...(data.durationHist ? { durationHist: data.durationHist } : {}),
      ...(data.blockedHist ? { blockedHist: data.blockedHist } : {}),
    },
  });
  return r.count === 1;
}

/** Recomputes the experiment's status from its runs after any run ends. */
export async function refreshExperimentStatus(db: Db, experimentId: string): Promise<void> {
  const groups = await db.run.groupBy({ by: ['status'], where: { experimentId }, _count: true });
  const count = (s: RunStatus) => groups.find((g) => g.status === s)?._count ?? 0;
  const total = groups.reduce((n, g) => n + g._count, 0);
  const active = count('queued') + count('preparing') + count('running');
  const started = total - count('queued');
  let status: 'queued' | 'running' | 'completed' | 'failed' | 'canceled';
  if (active > 0) status = started > 0 ? 'running' : 'queued';
  else if (count('canceled') === total) status = 'canceled';
  else if (count('succeeded') === total) status = 'completed';
  else status = count('succeeded') > 0 ? 'completed' : 'failed';
  await db.experiment.update({ where: { id: experimentId }, data: { status, finishedAt: active === 0 ? new Date() : null } });
}
