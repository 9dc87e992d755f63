import type { Db } from '@poolbench/db';
import { failSilentSegments, scheduleSegmentsStart } from '@poolbench/runs';
import { RunError } from '../run-error';

export interface WaitOptions {
  runId: string;
  count: number;
  joinTimeoutMs: number;
  startLeadMs: number;
  staleAfterMs: number;
  signal: AbortSignal;
  /** "waiting for 3 load generators, 2 free", every few seconds while generators are missing */
  onWaiting: (message: string) => void;
}

/** Workers seen recently that run nothing now (no active run, no active segment). */
async function idleWorkers(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM "Worker" w
     WHERE w."stoppedAt" IS NULL AND w."lastSeenAt" > now() - interval '30 seconds'
       AND NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."workerId" = w.id AND r.status IN ('preparing', 'running'))
       AND NOT EXISTS (SELECT 1 FROM "RunSegment" s WHERE s."workerId" = w.id AND s.status IN ('joined', 'ready', 'running'))`;
  return row?.n ?? 0;
}

/**
 * The leader's side of the start barrier: waits until every segment is joined by a distinct worker
 * and ready, then gives all the same start instant (now + lead). No k6 starts before that, so a run
 * never starts partially. Too few generators for joinTimeoutMs: RunError load_generators_unavailable.
 */
export async function waitForGenerators(db: Db, o: WaitOptions): Promise<Date> {
  const until = Date.now() + o.joinTimeoutMs;
  let lastMessageAt = 0;
  for (;;) {
    if (o.signal.aborted)
      throw new RunError(
        'canceled',
        'the run was stopped while it waited for its load generators; no load was sent',
      );
    const silent = await failSilentSegments(db, o.runId, o.staleAfterMs);
    if (silent.length) {
      const s = silent[0]!;
      throw new RunError(
        'segment_failed',
        `segment ${s.index} (worker ${s.workerId ?? 'unknown'}) stopped sending heartbeats before load started; no load was sent`,
      );
    }
    const segs = await db.runSegment.findMany({
      where: { runId: o.runId },
      select: { status: true, index: true, workerId: true, errorMessage: true },
    });
    const bad = segs.find((s) => s.status === 'failed');
    if (bad)
      throw new RunError(
        'segment_failed',
        `segment ${bad.index} (worker ${bad.workerId ?? 'unknown'}) failed before load started: ${bad.errorMessage ?? 'unknown error'}; no load was sent`,
      );
    if (segs.filter((s) => s.status === 'ready').length === o.count) {
      const startAt = new Date(Date.now() + o.startLeadMs);
      if (await scheduleSegmentsStart(db, o.runId, o.count, startAt)) return startAt;
    }
    const joined = segs.filter((s) => s.status !== 'pending').length;
    if (joined < o.count && Date.now() - lastMessageAt >= 2000) {
      lastMessageAt = Date.now();
      const free = Math.min(o.count, joined + (await idleWorkers(db)));
      o.onWaiting(`waiting for ${o.count} load generators, ${free} free`);
    }
    if (Date.now() > until) {
      const free = Math.min(o.count, joined + (await idleWorkers(db)));
      throw new RunError(
        'load_generators_unavailable',
        `waited ${Math.round(o.joinTimeoutMs / 1000)} s for ${o.count} load generators, only ${joined} joined (${free} free); no load was sent. Start more workers or lower loadGenerators`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** After its own k6 ended, the leader waits until every other segment ended too (or fell silent). */
export async function waitForSegmentsEnd(
  db: Db,
  runId: string,
  staleAfterMs: number,
  timeoutMs: number,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    await failSilentSegments(db, runId, staleAfterMs);
    const active = await db.runSegment.count({
      where: { runId, status: { in: ['joined', 'ready', 'running'] } },
    });
    if (active === 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}
