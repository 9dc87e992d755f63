import type { Logger } from 'pino';
import type { K6RunResult } from '@poolbench/k6';
import {
  failSilentSegments,
  finishSegment,
  heartbeatSegment,
  markSegmentRunning,
  segmentKey,
  type SegmentEnd,
} from '@poolbench/runs';
import { MetricsWriter } from '../../metrics/metrics-writer';
import { disturbanceBeforeStart, type startDisturbance } from '../disturbance';
import { runLoadPart } from '../load-part';
import type { RunDeps } from '../run-deps';
import type { RunLoad } from '../run-load';
import { bucketToRow } from '../summary';
import { colocatedGeneratorPids } from './colocated-generators';
import { executionSegmentOf } from './execution-segment';
import { GeneratorStats } from './generator-stats';

export interface GeneratorInput {
  deps: Pick<RunDeps, 'db' | 'registry' | 'metrics' | 'workerId'> & {
    config: Pick<RunDeps['config'], 'k6Bin' | 'heartbeatMs'>;
  };
  log: Logger;
  runId: string;
  /** the leader's: when the run was queued, for the worker's enqueue-to-first-request metric */
  queuedAt?: Date;
  /** opened when this generator took its work: CPU used beside it until its load starts */
  preparing: ReturnType<typeof startDisturbance>;
  index: number;
  count: number;
  /** the common start instant of every segment (the barrier's outcome) */
  startAt: Date;
  /** what k6 runs: the script and the files it opens beside itself (the scenario's data rows) */
  load: Pick<RunLoad, 'script' | 'files'>;
  /** where the load goes: the target's URLs, the addresses k6 refuses, its secret headers */
  target: {
    baseUrls: string[];
    network: { k6Blacklist: string[] };
    secretHeaders: Record<string, string>;
    /** the CPUs k6 may use on this worker (undefined = any) */
    cpus?: string;
  };
  timeoutMs: number;
  staleAfterMs: number;
  signal: AbortSignal;
}

/** Why this generator stopped before k6 ended by itself. */
export type GeneratorStop = 'cancel' | 'shutdown' | 'lost' | 'peer_failed' | 'run_ended';

export interface GeneratorResult {
  result: K6RunResult;
  stoppedBy: GeneratorStop | null;
  /** the segment (and worker) whose failure stopped this one */
  failedPeer: { index: number; workerId: string | null; message: string | null } | null;
  unwritten: number;
  status: SegmentEnd;
}

/**
 * Runs one k6 execution segment of a distributed run: k6 starts at once (VUs initialise, setup()
 * checks the target) and setup() waits for the common start instant; rows go to RunSecond with
 * segment 'gen:<index>' on the shared second clock of that instant. Every heartbeat also reads the
 * other segments: one that failed or fell silent stops this k6 within a heartbeat or two.
 */
export async function runGenerator(g: GeneratorInput): Promise<GeneratorResult> {
  const { db, registry, metrics, workerId } = g.deps;
  const { k6Bin, heartbeatMs } = g.deps.config;
  const own = new AbortController();
  const signal = AbortSignal.any([g.signal, own.signal]);
  let failedPeer: GeneratorResult['failedPeer'] = null;
  const stats = new GeneratorStats();
  let requests = 0;
  const beat = async () => {
    const hb = await heartbeatSegment(db, g.runId, g.index, workerId, {
      ...stats.snapshot(),
      requests,
    });
    if (!hb.alive) return own.abort('lost');
    if (hb.cancelRequested) return own.abort('cancel');
    if (hb.runStatus !== 'preparing' && hb.runStatus !== 'running') return own.abort('run_ended');
    const silent = (await failSilentSegments(db, g.runId, g.staleAfterMs)).find(
      (s) => s.index !== g.index,
    );
    const peer = silent
      ? { ...silent, errorMessage: 'stopped sending heartbeats' }
      : hb.segments.find((s) => s.index !== g.index && s.status === 'failed');
    if (peer) {
      failedPeer = { index: peer.index, workerId: peer.workerId, message: peer.errorMessage };
      own.abort('peer_failed');
    }
  };
  let beating: Promise<void> | null = null;
  // Beats well inside the stale limit, so a slow statement never makes a live generator look dead.
  const hb = setInterval(
    () => {
      beating ??= beat()
        .catch((err) => g.log.warn({ err: String(err) }, 'segment heartbeat failed'))
        .finally(() => (beating = null));
    },
    Math.min(heartbeatMs, Math.floor(g.staleAfterMs / 3)),
  );

  const t0 = Math.floor(g.startAt.getTime() / 1000);
  const writer = new MetricsWriter(db, {
    onError: (err, pending) =>
      g.log.warn({ err: String(err), pending }, 'segment write failed; buffered'),
  });
  writer.start();
  try {
    const colocated = await colocatedGeneratorPids(db, g.runId).catch((err: unknown) => {
      g.log.warn({ err: String(err) }, 'could not read the generators beside this one');
      return [];
    });
    const beforeStart = await disturbanceBeforeStart(g.preparing, signal, colocated);
    if (!(await markSegmentRunning(db, g.runId, g.index, workerId))) own.abort('run_ended');
    const { result, disturbance, delivery } = await runLoadPart({
      runId: g.runId,
      alsoOurs: colocated,
      log: g.log,
      registry,
      metrics,
      queuedAt: g.queuedAt,
      onSpawn: (pid) => stats.start(pid),
      k6: {
        script: g.load.script,
        files: g.load.files,
        env: {
          BASE_URLS: g.target.baseUrls.join(','),
          POOLBENCH_START_AT_MS: String(g.startAt.getTime()),
        },
        secretEnv: Object.keys(g.target.secretHeaders).length
          ? { POOLBENCH_SECRET_HEADERS: JSON.stringify(g.target.secretHeaders) }
          : undefined,
        signal,
        timeoutMs: g.timeoutMs + Math.max(0, g.startAt.getTime() - Date.now()),
        // A stopped segment must stop sending load fast: its peers count on it (< 5 s).
        stopGraceMs: 2000,
        k6Bin,
        blacklistIps: g.target.network.k6Blacklist,
        cpus: g.target.cpus,
        executionSegment: executionSegmentOf(g.index, g.count),
        onSecond: (bucket) => {
          requests += bucket.requests;
          writer.addSeconds([
            { ...bucketToRow(g.runId, t0, bucket), segment: segmentKey(g.index) },
          ]);
        },
      },
    });
    stats.stop();
    const unwritten = await writer.flush();
    const stoppedBy = signal.aborted ? (String(signal.reason) as GeneratorStop) : null;
    // Set by the heartbeat closure, which TypeScript's narrowing cannot see.
    const peer = failedPeer as GeneratorResult['failedPeer'];
    const status: SegmentEnd =
      result.endReason === 'completed' && unwritten === 0
        ? 'succeeded'
        : stoppedBy === 'peer_failed' || stoppedBy === 'cancel' || stoppedBy === 'run_ended'
          ? 'canceled'
          : 'failed';
    const errorMessage =
      status === 'succeeded'
        ? null
        : stoppedBy === 'peer_failed'
          ? `stopped because segment ${peer?.index} (worker ${peer?.workerId ?? 'unknown'}) failed`
          : stoppedBy
            ? `stopped: ${stoppedBy}`
            : `k6 ended ${result.endReason} (exit code ${result.exitCode ?? 'none'})${result.k6Error ? `: ${result.k6Error}` : ''}${unwritten ? `; ${unwritten} rows not stored` : ''}`;
    const firstTs = result.summary.loadSeconds?.[0];
    await finishSegment(db, g.runId, g.index, workerId, {
      status,
      errorCode: status === 'succeeded' ? null : (stoppedBy ?? result.endReason),
      errorMessage,
      requests: result.summary.requests,
      loadStartedAt: result.load
        ? new Date(result.load.startMs)
        : firstTs !== undefined
          ? new Date(firstTs * 1000)
          : null,
      loadMs: result.load ? result.load.endMs - result.load.startMs : null,
      cpuAvgPercent: stats.cpuAvgPercent ?? null,
      cpuMaxPercent: stats.cpuMaxPercent ?? null,
      rssMaxBytes: stats.rssMaxBytes ?? null,
      delivery,
      disturbance,
      disturbanceBeforeStart: beforeStart,
    });
    return { result, stoppedBy, failedPeer: peer, unwritten, status };
  } finally {
    clearInterval(hb);
    stats.stop();
    await beating;
    await writer.flush(10_000).catch(() => {});
  }
}
