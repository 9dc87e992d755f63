import { DelayedError, type Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import { finishSegment, heartbeatSegment, joinSegment, markSegmentReady } from '@poolbench/runs';
import { RunJobSchema } from '@poolbench/contracts';
import { RunError, toRunError } from '../run-error';
import { k6TimeoutMs, planRun, templatePlan } from '../run-plan';
import type { RunDeps, RunOutcome } from '../run-deps';
import { runLoad } from '../run-load';
import { runToExecute } from '../run-to-execute';
import { startDisturbance } from '../disturbance';
import { besideLeader } from './colocated-generators';
import { prepareGeneratorTarget } from './generator-target';
import { runGenerator } from './run-generator';

const DEFAULTS = { joinTimeoutMs: 120_000, staleAfterMs: 3000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A load generator's job for segment `segment` of a distributed run: join (at most one segment of
 * a run per worker: a worker that already holds one hands the job back to the queue), check and
 * pin the target on this worker, report ready, wait for the common start instant, run the
 * segment. The leader ends the run; this job only ends its segment.
 */
export async function processSegmentJob(
  job: Pick<Job, 'data' | 'moveToDelayed'>,
  token: string | undefined,
  deps: RunDeps,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const parsed = RunJobSchema.safeParse(job.data);
  if (!parsed.success || parsed.data.segment === undefined)
    throw new UnrecoverableError('invalid segment job payload');
  const { runId, segment } = parsed.data;
  const { db, workerId } = deps;
  const cfg = { ...DEFAULTS, ...deps.config.distributed };
  const log = deps.log.child({ runId, segment });
  const joined = await joinSegment(db, runId, segment, workerId);
  if (joined === 'same_worker') {
    // Another worker must take it: back to the queue shortly, not processed here.
    await job.moveToDelayed(Date.now() + 1000, token);
    throw new DelayedError();
  }
  if (joined === 'gone')
    return { runId, status: 'skipped', reason: `segment ${segment} not joinable` };
  deps.active.add(`${runId}#${segment}`);
  // what else used this generator's CPUs from its join until its load starts
  const preparing = startDisturbance();
  const own = new AbortController();
  const runSignal = AbortSignal.any([signal, own.signal]);
  // Until load starts, the heartbeat proves this generator alive and watches the run.
  let startAt: Date | null = null;
  let leaderUrls: string[] | null = null;
  const beat = async () => {
    const hb = await heartbeatSegment(db, runId, segment, workerId);
    if (!hb.alive) return own.abort('run_ended');
    if (hb.runStatus !== 'preparing' && hb.runStatus !== 'running') return own.abort('run_ended');
    const leader = hb.segments.find((s) => s.index === 0);
    if (leader && leader.status !== 'joined' && leader.baseUrls.length > 0)
      leaderUrls = leader.baseUrls;
    startAt = hb.segments.find((s) => s.index === segment)?.startAt ?? null;
  };
  const prepHb = setInterval(
    () => void beat().catch((err) => log.warn({ err: String(err) }, 'segment heartbeat failed')),
    Math.min(deps.config.heartbeatMs, 250),
  );
  try {
    const run = await runToExecute(db, runId);
    const plan = templatePlan(planRun(run));
    const until = Date.now() + cfg.joinTimeoutMs + deps.config.readyTimeoutMs;
    while (!leaderUrls) {
      if (runSignal.aborted)
        throw new RunError('canceled', 'the run ended before its target was ready');
      if (Date.now() > until)
        throw new RunError('target_not_ready', 'the leading worker never published a ready target');
      await sleep(100);
    }
    const target = await prepareGeneratorTarget(run, leaderUrls, {
      poolConfig: plan.poolConfig,
      besideLeader: await besideLeader(db, runId),
    });
    const generated = runLoad(plan, target, {
      hosts: target.network.k6Hosts,
      targetHeaders: run.targetHeaders,
    });
    if (!(await markSegmentReady(db, runId, segment, workerId)))
      throw new RunError('canceled', 'the segment was ended before it was ready');
    while (!startAt) {
      if (runSignal.aborted) throw new RunError('canceled', 'the run ended before load started');
      if (Date.now() > until)
        throw new RunError('timed_out', 'no start instant came from the leading worker');
      await sleep(50);
    }
    clearInterval(prepHb);
    const gen = await runGenerator({
      deps,
      log,
      runId,
      preparing,
      index: segment,
      count: run.loadGenerators,
      startAt,
      load: generated,
      target,
      timeoutMs: k6TimeoutMs(generated.estimatedDurationMs, deps.config.timeoutMarginMs),
      staleAfterMs: cfg.staleAfterMs,
      signal: runSignal,
    });
    log.info({ status: gen.status, requests: gen.result.summary.requests }, 'segment finished');
    return {
      runId,
      status:
        gen.status === 'succeeded'
          ? 'succeeded'
          : gen.status === 'canceled'
            ? 'canceled'
            : 'failed',
    };
  } catch (err) {
    const re = toRunError(err);
    log.warn({ code: re.code, msg: re.message }, 'segment failed');
    const status = re.code === 'canceled' ? 'canceled' : 'failed';
    await finishSegment(db, runId, segment, workerId, {
      status,
      errorCode: re.code,
      errorMessage: re.message,
    }).catch(() => {});
    return { runId, status, reason: re.message };
  } finally {
    clearInterval(prepHb);
    deps.active.delete(`${runId}#${segment}`);
  }
}
