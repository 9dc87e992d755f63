import {
  toJson,
  type Db,
  type DisturbanceBeforeStartRecord,
  type DisturbanceRecord,
  type RunSegmentStatus,
} from '@poolbench/db';
import type { RunDelivery } from '@poolbench/contracts';

/**
 * Transitions of the segments of a distributed run (one row per load generator). Like the run's
 * own transitions each is a conditional UPDATE on the current status and the owning worker, so a
 * duplicate job, a late worker and the leader's timeout can never both win.
 */
export const ACTIVE_SEGMENT_STATUSES: RunSegmentStatus[] = ['joined', 'ready', 'running'];
export type SegmentEnd = Extract<RunSegmentStatus, 'succeeded' | 'failed' | 'canceled'>;

/** The leader (the worker that claimed the run) creates every segment and takes segment 0. */
export async function createSegments(
  db: Db,
  runId: string,
  count: number,
  leaderWorkerId: string,
): Promise<void> {
  const now = new Date();
  await db.runSegment.createMany({
    data: Array.from({ length: count }, (_, index) =>
      index === 0
        ? {
            runId,
            index,
            status: 'joined' as const,
            workerId: leaderWorkerId,
            joinedAt: now,
            heartbeatAt: now,
          }
        : { runId, index },
    ),
    skipDuplicates: true,
  });
}

export type JoinResult = 'joined' | 'same_worker' | 'gone';

/**
 * pending → joined by a worker that holds no other segment of this run (a worker takes at most one
 * segment of a run, so N segments always run on N distinct workers), while the run is preparing.
 */
export async function joinSegment(
  db: Db,
  runId: string,
  index: number,
  workerId: string,
): Promise<JoinResult> {
  const n = await db.$executeRaw`
    UPDATE "RunSegment" s SET status = 'joined', "workerId" = ${workerId}, "joinedAt" = now(), "heartbeatAt" = now()
     WHERE s."runId" = ${runId} AND s.index = ${index} AND s.status = 'pending'
       AND NOT EXISTS (SELECT 1 FROM "RunSegment" o WHERE o."runId" = ${runId} AND o."workerId" = ${workerId})
       AND EXISTS (SELECT 1 FROM "Run" r WHERE r.id = ${runId} AND r.status = 'preparing' AND r."cancelRequestedAt" IS NULL)`;
  if (n === 1) return 'joined';
  const mine = await db.runSegment.count({ where: { runId, workerId, NOT: { index } } });
  const still = await db.runSegment.count({ where: { runId, index, status: 'pending' } });
  return mine > 0 && still > 0 ? 'same_worker' : 'gone';
}

/** joined → ready: this generator reached the target and has its script; segment 0 also publishes the target's URLs. */
export async function markSegmentReady(
  db: Db,
  runId: string,
  index: number,
  workerId: string,
  baseUrls: string[] = [],
): Promise<boolean> {
  const r = await db.runSegment.updateMany({
    where: { runId, index, workerId, status: 'joined' },
    data: { status: 'ready', readyAt: new Date(), heartbeatAt: new Date(), baseUrls },
  });
  return r.count === 1;
}

/** The start barrier: once every segment is ready, all get the same start instant (only then does any k6 start). */
export async function scheduleSegmentsStart(
  db: Db,
  runId: string,
  count: number,
  startAt: Date,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const ready = await tx.runSegment.count({ where: { runId, status: 'ready', startAt: null } });
    if (ready !== count) return false;
    const r = await tx.runSegment.updateMany({
      where: { runId, status: 'ready', startAt: null },
      data: { startAt },
    });
    return r.count === count;
  });
}

/** ready → running, when this generator's k6 is started. */
export async function markSegmentRunning(
  db: Db,
  runId: string,
  index: number,
  workerId: string,
): Promise<boolean> {
  const r = await db.runSegment.updateMany({
    where: { runId, index, workerId, status: 'ready', startAt: { not: null } },
    data: { status: 'running', heartbeatAt: new Date() },
  });
  return r.count === 1;
}

export interface SegmentView {
  index: number;
  status: RunSegmentStatus;
  workerId: string | null;
  heartbeatAt: Date | null;
  startAt: Date | null;
  baseUrls: string[];
  errorCode: string | null;
  errorMessage: string | null;
}

/** Proves this generator alive and returns every segment and the run's status, so each generator sees a failed or silent peer. */
export async function heartbeatSegment(
  db: Db,
  runId: string,
  index: number,
  workerId: string,
  stats: {
    cpuAvgPercent?: number;
    cpuMaxPercent?: number;
    rssMaxBytes?: bigint;
    requests?: number;
  } = {},
): Promise<{
  alive: boolean;
  runStatus: string | null;
  cancelRequested: boolean;
  segments: SegmentView[];
}> {
  const r = await db.runSegment.updateMany({
    where: { runId, index, workerId, status: { in: ACTIVE_SEGMENT_STATUSES } },
    data: { heartbeatAt: new Date(), ...stats },
  });
  const [run, segments] = await Promise.all([
    db.run.findUnique({ where: { id: runId }, select: { status: true, cancelRequestedAt: true } }),
    db.runSegment.findMany({
      where: { runId },
      orderBy: { index: 'asc' },
      select: {
        index: true,
        status: true,
        workerId: true,
        heartbeatAt: true,
        startAt: true,
        baseUrls: true,
        errorCode: true,
        errorMessage: true,
      },
    }),
  ]);
  return {
    alive: r.count === 1,
    runStatus: run?.status ?? null,
    cancelRequested: !!run?.cancelRequestedAt,
    segments,
  };
}

export interface SegmentFinish {
  status: SegmentEnd;
  errorCode?: string | null;
  errorMessage?: string | null;
  requests?: number;
  loadStartedAt?: Date | null;
  loadMs?: number | null;
  cpuAvgPercent?: number | null;
  cpuMaxPercent?: number | null;
  rssMaxBytes?: bigint | null;
  /** how this generator's samples reached k6's output; null when its output did not end cleanly */
  delivery?: RunDelivery | null;
  /** CPU used beside this generator while its k6 ran, and while it was prepared */
  disturbance?: DisturbanceRecord | null;
  disturbanceBeforeStart?: DisturbanceBeforeStartRecord | null;
}

/** An active segment this worker owns ends; false when it already ended (e.g. canceled by the leader). */
export async function finishSegment(
  db: Db,
  runId: string,
  index: number,
  workerId: string,
  data: SegmentFinish,
): Promise<boolean> {
  const r = await db.runSegment.updateMany({
    where: { runId, index, workerId, status: { in: ACTIVE_SEGMENT_STATUSES } },
    data: {
      ...data,
      errorCode: data.errorCode ?? null,
      errorMessage: data.errorMessage ?? null,
      delivery: data.delivery ? toJson.segmentDelivery(data.delivery) : undefined,
      disturbance: data.disturbance ? toJson.segmentDisturbance(data.disturbance) : undefined,
      disturbanceBeforeStart: data.disturbanceBeforeStart
        ? toJson.segmentDisturbanceBeforeStart(data.disturbanceBeforeStart)
        : undefined,
      finishedAt: new Date(),
    },
  });
  return r.count === 1;
}

/** Segments not yet running are canceled (the run gave up waiting, or failed before load). */
export async function cancelWaitingSegments(
  db: Db,
  runId: string,
  reason: string,
): Promise<number> {
  const r = await db.runSegment.updateMany({
    where: { runId, status: { in: ['pending', 'joined', 'ready'] } },
    data: {
      status: 'canceled',
      finishedAt: new Date(),
      errorCode: 'canceled',
      errorMessage: reason,
    },
  });
  return r.count;
}

/** Segments whose worker stopped sending heartbeats (killed, partitioned) end failed, naming that worker. */
export async function failSilentSegments(
  db: Db,
  runId: string,
  staleAfterMs: number,
): Promise<{ index: number; workerId: string | null }[]> {
  const cutoff = new Date(Date.now() - staleAfterMs);
  const silent = await db.runSegment.findMany({
    where: { runId, status: { in: ACTIVE_SEGMENT_STATUSES }, heartbeatAt: { lt: cutoff } },
    select: { index: true, workerId: true },
  });
  const failed: { index: number; workerId: string | null }[] = [];
  for (const s of silent) {
    const r = await db.runSegment.updateMany({
      where: {
        runId,
        index: s.index,
        status: { in: ACTIVE_SEGMENT_STATUSES },
        heartbeatAt: { lt: cutoff },
      },
      data: {
        status: 'failed',
        finishedAt: new Date(),
        errorCode: 'worker_lost',
        errorMessage: `worker ${s.workerId ?? 'unknown'} of segment ${s.index} stopped sending heartbeats`,
      },
    });
    if (r.count === 1) failed.push(s);
  }
  return failed;
}

/** Start skew of every segment that started load: its load start minus the earliest one's. */
export async function recordStartSkew(db: Db, runId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "RunSegment" s SET "startSkewMs" = EXTRACT(EPOCH FROM (s."loadStartedAt" - m.first)) * 1000
      FROM (SELECT min("loadStartedAt") AS first FROM "RunSegment" WHERE "runId" = ${runId}) m
     WHERE s."runId" = ${runId} AND s."loadStartedAt" IS NOT NULL`;
}
