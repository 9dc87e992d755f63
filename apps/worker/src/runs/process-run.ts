import { toJson } from '@poolbench/db';
import { scriptScenariosAllowed, SCRIPTS_OFF_MESSAGE } from '@poolbench/runs';
import { evaluateThresholds } from '@poolbench/scenarios';
import { thresholdContextFromSummary } from '@poolbench/k6';
import type { InsightSecond } from '@poolbench/stats';
import { RunError } from './run-error';
import { runEnvironment } from './environment';
import { disturbanceBeforeStart, startDisturbance } from './disturbance';
import { outcomeFromK6 } from './outcome';
import { prepareTarget } from './prepare-target';
import { generatorCpus } from './cpu-isolation';
import { insightCodesOf } from './insight-codes';
import { k6TimeoutMs, planRun } from './run-plan';
import { runLoad } from './run-load';
import { runLoadPart } from './load-part';
import { toSeriesPoint } from './series-point';
import { b64ToBytes, bucketToRow, buildSummary } from './summary';
import { runSession } from './run-session';
import { runToExecute } from './run-to-execute';
import type { RunDeps, RunOutcome } from './run-deps';

/**
 * Executes one run on one load generator: the run session (claim, heartbeat, writer, cleanup,
 * terminal status) around plan → prepare the target → k6 with the per-second output and the
 * samplers → summary + thresholds. `signal` is BullMQ's per-job signal: `worker.cancelJob(runId,
 * 'cancel')` for a user's cancel, `cancelAllJobs('shutdown')` when the shutdown grace is over.
 * Nothing here re-runs a load test.
 */
export async function processRun(
  runId: string,
  deps: RunDeps,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const { db } = deps;
  return runSession(runId, deps, signal, { log: deps.log.child({ runId }) }, async (s) => {
    // what else used the CPUs while the run was prepared: whether it starts on a busy machine
    const beforeStart = startDisturbance();
    const run = await runToExecute(db, runId);
    const plan = planRun(run);
    // a queued script run does not start once the team's admins turned scripts off
    if (plan.kind === 'script' && !(await scriptScenariosAllowed(db, run.teamId)))
      throw new RunError('scripts_disabled', SCRIPTS_OFF_MESSAGE);
    const target = s.adoptTarget(
      await prepareTarget(
        run,
        plan.poolConfig,
        { ...deps.config, registry: deps.registry },
        s.signal,
      ),
    );

    // The script that runs: k6 resolves nothing itself (hosts pinned to the checked addresses),
    // and a URL target's non-secret headers go on every request.
    const generated = runLoad(plan, target, {
      hosts: target.network.k6Hosts,
      targetHeaders: run.targetHeaders,
    });
    // a script stops at its own stop time; a template run gets its planned length plus a margin
    const timeoutMs =
      generated.stopAtMs ?? k6TimeoutMs(generated.estimatedDurationMs, deps.config.timeoutMarginMs);
    const environment = await runEnvironment(deps, run, target);
    const preparing = await disturbanceBeforeStart(beforeStart, s.signal);
    const recorded = {
      ...environment,
      ...(preparing ? { disturbanceBeforeStart: preparing } : {}),
    };
    const { sampler, t0 } = await s.beginLoad(target, {
      script: generated.script,
      environment: recorded,
    });

    // requests, active VUs and latency per second, for the insights that decide insight thresholds
    const seen: InsightSecond[] = [];
    const { result, disturbance, delivery } = await runLoadPart({
      runId,
      log: s.log,
      registry: deps.registry,
      metrics: deps.metrics,
      queuedAt: run.queuedAt,
      k6: {
        script: generated.script,
        // the scenario's data rows, which the script opens beside itself
        files: generated.files,
        env: { ...generated.env, BASE_URLS: target.baseUrls.join(',') },
        // a team's own script runs sandboxed, and gets none of the target's secret headers
        sandbox: generated.sandbox,
        // Secret headers travel in k6's environment, never in the stored script or its command line.
        secretEnv:
          !generated.sandbox && Object.keys(target.secretHeaders).length
            ? { POOLBENCH_SECRET_HEADERS: JSON.stringify(target.secretHeaders) }
            : undefined,
        signal: s.signal,
        timeoutMs,
        stopGraceMs: 4000,
        k6Bin: deps.config.k6Bin,
        blacklistIps: target.network.k6Blacklist,
        cpus: generatorCpus(target.isolation),
        onSecond: (bucket) => {
          const row = bucketToRow(runId, t0, bucket);
          seen.push({
            requests: row.requests,
            p50Ms: row.p50Ms ?? null,
            vus: row.vus,
            maxMs: row.maxMs ?? null,
          });
          s.writer.addSeconds([row]);
          s.publish({
            type: 'second',
            runId,
            atMs: Date.now(),
            point: toSeriesPoint(row, sampler.byUnix.get(bucket.ts)),
          });
        },
      },
    });

    await sampler.stop();
    // what else used the machine's CPU while this run ran (stored with the run's environment)
    if (disturbance)
      await db.run
        .update({
          where: { id: runId },
          data: { environment: toJson.runEnvironment({ ...recorded, disturbance }) },
        })
        .catch((err: unknown) => s.log.warn({ err }, 'could not record the disturbance'));
    const summary = buildSummary(
      result,
      delivery,
      sampler.totals.filter((r) => r.unixSecond >= t0),
      generated.stepOrder,
    );
    const thresholds = evaluateThresholds(
      generated.thresholds,
      thresholdContextFromSummary(
        result.summary,
        summary.durationMs > 0 ? summary.durationMs / 1000 : undefined,
        result.subMetrics,
      ),
      insightCodesOf({
        summary,
        poolConfigSnapshot: run.poolConfigSnapshot,
        scenarioSnapshot: run.scenarioSnapshot,
        environment: { ...recorded, ...(disturbance ? { disturbance } : {}) },
        seconds: seen,
      }),
    );
    return {
      outcome: outcomeFromK6({
        ...result,
        abortReason: s.abortReason(),
        timeoutMs,
        stopTime: generated.stopAtMs !== undefined,
        thresholds,
      }),
      data: {
        summary,
        thresholdResults: thresholds,
        durationHist: b64ToBytes(result.summary.histograms.http_req_duration),
        blockedHist: b64ToBytes(result.summary.histograms.http_req_blocked),
      },
      logFields: { requests: summary.requests },
    };
  });
}
