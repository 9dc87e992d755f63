import type { Queue } from 'bullmq';
import { toJson, type Db, type RunEnvironment } from '@poolbench/db';
import type { TerminalRunStatus } from '@poolbench/contracts';
import type { ThresholdResult } from '@poolbench/scenarios';
import type { RunSummary } from '@poolbench/stats';
import { lockExperiment, refreshExperimentStatus } from './experiment-status';
import { afterRunEnded, type AfterRunLog } from './hypotheses/after-run-ended';
import { ACTIVE_RUN_STATUSES, fromStatuses, toStatus } from './run-status-table';

/**
 * A worker's transitions of one run. Each is a conditional UPDATE on the current status (and the
 * claiming worker), so a job delivered twice, the stale-run sweeper and a late worker can never
 * both win: whoever's UPDATE matches first owns the transition, the others see count 0 and back
 * off. Each runs in one transaction with the experiment's refresh, behind the experiment's lock.
 */
export type TerminalStatus = TerminalRunStatus;

async function experimentOf(db: Db, runId: string): Promise<string | null> {
  const row = await db.run.findUnique({ where: { id: runId }, select: { experimentId: true } });
  return row?.experimentId ?? null;
}

/** queued → preparing, unless a cancel came first. */
export async function claimRun(db: Db, runId: string, workerId: string): Promise<boolean> {
  const experimentId = await experimentOf(db, runId);
  if (!experimentId) return false;
  return db.$transaction(async (tx) => {
    await lockExperiment(tx, experimentId);
    const now = new Date();
    const r = await tx.run.updateMany({
      where: { id: runId, status: fromStatuses('claim'), cancelRequestedAt: null },
      data: {
        status: toStatus('claim', 'preparing'),
        preparingAt: now,
        heartbeatAt: now,
        workerId,
      },
    });
    if (r.count === 1) await refreshExperimentStatus(tx, experimentId);
    return r.count === 1;
  });
}

/** preparing → running, with the script and environment that load starts with. */
export async function markRunning(
  db: Db,
  runId: string,
  workerId: string,
  data: { script: string; environment: RunEnvironment },
): Promise<boolean> {
  const now = new Date();
  const r = await db.run.updateMany({
    where: { id: runId, status: fromStatuses('start'), workerId, cancelRequestedAt: null },
    data: {
      status: toStatus('start', 'running'),
      startedAt: now,
      heartbeatAt: now,
      script: data.script,
      environment: toJson.runEnvironment(data.environment),
    },
  });
  return r.count === 1;
}

/**
 * Proves liveness to the sweeper and reads the durable cancel flag in the same statement.
 * alive=false: the run is no longer this worker's (swept, or ended elsewhere).
 */
export async function heartbeatRun(
  db: Db,
  runId: string,
  workerId: string,
): Promise<{ alive: boolean; cancelRequested: boolean }> {
  const rows = await db.run.updateManyAndReturn({
    where: { id: runId, workerId, status: { in: [...ACTIVE_RUN_STATUSES] } },
    data: { heartbeatAt: new Date() },
    select: { cancelRequestedAt: true },
  });
  const row = rows[0];
  return row
    ? { alive: true, cancelRequested: row.cancelRequestedAt !== null }
    : { alive: false, cancelRequested: false };
}

export interface FinishData {
  status: TerminalStatus;
  errorCode?: string | null;
  errorMessage?: string | null;
  summary?: RunSummary;
  thresholdResults?: ThresholdResult[];
  durationHist?: Uint8Array<ArrayBuffer> | null;
  blockedHist?: Uint8Array<ArrayBuffer> | null;
}

/** Ends a run this worker owns. Returns false when someone else already ended it. */
export async function finishRun(
  db: Db,
  runId: string,
  workerId: string,
  data: FinishData,
  /**
   * where runs the experiment grows by after this run (advisor, "until decided") are enqueued, and
   * where a follow-up step that failed is logged
   */
  opts: { queue?: Queue; log?: AfterRunLog } = {},
): Promise<boolean> {
  const experimentId = await experimentOf(db, runId);
  if (!experimentId) return false;
  const ended = await db.$transaction(async (tx) => {
    await lockExperiment(tx, experimentId);
    const r = await tx.run.updateMany({
      where: { id: runId, workerId, status: fromStatuses('finish') },
      data: {
        status: toStatus('finish', data.status),
        finishedAt: new Date(),
        errorCode: data.errorCode ?? null,
        errorMessage: data.errorMessage ?? null,
        ...(data.summary !== undefined ? { summary: toJson.runSummary(data.summary) } : {}),
        ...(data.thresholdResults !== undefined
          ? { thresholdResults: toJson.thresholdResults(data.thresholdResults) }
          : {}),
        ...(data.durationHist ? { durationHist: data.durationHist } : {}),
        ...(data.blockedHist ? { blockedHist: data.blockedHist } : {}),
      },
    });
    if (r.count === 1) await refreshExperimentStatus(tx, experimentId);
    return r.count === 1;
  });
  if (ended) await afterRunEnded(db, experimentId, opts.queue, opts.log);
  return ended;
}
