import { toJson, type Db, type Prisma } from '@poolbench/db';
import {
  createHistogram,
  encodeHistogram,
  histogramStatsMs,
  type RunSummary,
} from '@poolbench/stats';
import { mergeStoredHistograms } from '@poolbench/stats/stored';

/** Deterministic PRNG so tests and benchmarks see the same data every time. */
export function prng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

export interface SyntheticRunSpec {
  teamId: string;
  experimentId: string;
  targetId: string;
  poolConfigId: string;
  scenarioId: string;
  poolConfigName: string;
  scenarioName: string;
  repeatIndex: number;
  seconds: number;
  /** median latency in ms and requests per second at steady state */
  latencyMs: number;
  rps: number;
  errorRate?: number;
  /** latency factor added per second before second 10: (10 - s) x this (default 0.15) */
  coldStartFactor?: number;
  seed: number;
  environment?: Record<string, unknown>;
}

/** The Run row of a synthetic run (status succeeded), without seconds or summary. */
export async function createSyntheticRun(
  db: Db,
  spec: Omit<SyntheticRunSpec, 'latencyMs' | 'rps' | 'seed'>,
): Promise<{ id: string }> {
  return db.run.create({
    data: {
      teamId: spec.teamId,
      experimentId: spec.experimentId,
      targetId: spec.targetId,
      poolConfigId: spec.poolConfigId,
      scenarioId: spec.scenarioId,
      repeatIndex: spec.repeatIndex,
      sequence: spec.repeatIndex,
      status: 'succeeded',
      poolConfigSnapshot: {
        name: spec.poolConfigName,
        strategy: spec.poolConfigName.split(/\W/)[0] ?? 'lazy',
        params: {},
      },
      scenarioSnapshot: { name: spec.scenarioName },
      targetSnapshot: {
        name: 'Lab',
        kind: 'managed',
        baseUrls: ['http://127.0.0.1:1/secret-path'],
      },
      script: 'export default function () { /* secret script */ }',
      environment: toJson.runEnvironment(
        spec.environment ?? {
          cpuModel: 'Synthetic CPU',
          cpuCount: 2,
          k6Version: 'k6 v1.8.1',
          labTargetVersion: 'lab 0.1.0',
        },
      ),
      startedAt: new Date(Date.now() - spec.seconds * 1000),
      finishedAt: new Date(),
    },
    select: { id: true },
  });
}

/**
 * Writes one succeeded run the way the worker does: per-second RunSecond rows with real encoded
 * HDR histograms (log-normal latencies with a cold-start bump in the first seconds), summed
 * ResourceSample rows (instance -1) and a Run.summary computed from the merged histograms.
 */
export async function insertSyntheticRun(db: Db, spec: SyntheticRunSpec): Promise<string> {
  const rnd = prng(spec.seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() || 1e-9)) * Math.cos(2 * Math.PI * rnd());
  const run = await createSyntheticRun(db, spec);
  const t0 = Date.now() - spec.seconds * 1000;
  const seconds: Prisma.RunSecondCreateManyInput[] = [];
  const resources: Prisma.ResourceSampleCreateManyInput[] = [];
  const encoded: Uint8Array[] = [];
  let requests = 0;
  let failed = 0;
  let cpuSum = 0;
  let cpuPeak = 0;
  let rssSum = 0;
  let rssPeak = 0;
  let waitSum = 0;
  for (let s = 0; s < spec.seconds; s++) {
    const warm = s < 10 ? 1 + (10 - s) * (spec.coldStartFactor ?? 0.15) : 1;
    const n = Math.max(1, Math.round(spec.rps * (0.95 + 0.1 * rnd())));
    const f = Math.round(n * (spec.errorRate ?? 0) * (0.5 + rnd()));
    const h = createHistogram();
    // 64 sampled latencies per second, each standing for n/64 requests: realistic shape, fast to build
    const samples = 64;
    for (let i = 0; i < samples; i++) {
      const ms = spec.latencyMs * warm * Math.exp(0.35 * gauss());
      h.recordValueWithCount(
        Math.max(1, Math.round(ms * 1000)),
        Math.max(1, Math.round(n / samples)),
      );
    }
    const bytes = new Uint8Array(Buffer.from(encodeHistogram(h), 'base64'));
    // connection set-up: new connections (~2.5 ms) in the first 5 seconds, reused ones (~10 µs) after
    const blocked = createHistogram();
    blocked.recordValueWithCount(s < 5 ? 2500 + Math.round(rnd() * 1000) : 10, h.totalCount);
    encoded.push(bytes);
    const st = histogramStatsMs(h)!;
    requests += h.totalCount;
    failed += f;
    const cpu = 20 + 30 * (spec.rps / 500) * (0.9 + 0.2 * rnd());
    const rss = 80 * 2 ** 20 + s * 2000 + rnd() * 4 * 2 ** 20;
    const wait = spec.latencyMs * 0.05 * warm * rnd();
    cpuSum += cpu;
    cpuPeak = Math.max(cpuPeak, cpu);
    rssSum += rss;
    rssPeak = Math.max(rssPeak, rss);
    waitSum += wait;
    seconds.push({
      runId: run.id,
      second: s,
      ts: new Date(t0 + s * 1000),
      requests: h.totalCount,
      failed: f,
      statusCounts: { '200': h.totalCount - f, ...(f ? { '503': f } : {}) },
      bytesSent: BigInt(h.totalCount * 120),
      bytesReceived: BigInt(h.totalCount * 800),
      iterations: h.totalCount,
      droppedIterations: 0,
      vus: 20,
      vusMax: 20,
      p50Ms: st.p50,
      p90Ms: st.p90,
      p95Ms: st.p95,
      p99Ms: st.p99,
      p999Ms: st.p999,
      maxMs: st.max,
      meanMs: st.mean,
      connectingP95Ms: s < 5 ? 2 + rnd() : 0,
      blockedP95Ms: s < 5 ? 2.5 + rnd() : 0.01,
      durationHist: bytes,
      blockedHist: new Uint8Array(Buffer.from(encodeHistogram(blocked), 'base64')),
    });
    resources.push({
      runId: run.id,
      second: s,
      instance: -1,
      ts: new Date(t0 + s * 1000),
      cpuPercent: cpu,
      rssBytes: BigInt(Math.round(rss)),
      poolTotal: 10,
      poolIdle: 3,
      poolInUse: 7,
      poolMax: 10,
      poolWaitCount: Math.round(rnd() * 3),
      poolWaitMs: wait,
      dbActive: 7,
      dbIdle: 3,
      dbTotal: 10,
      dbNewConns: s < 3 ? 3 : 0,
    });
  }
  for (let i = 0; i < seconds.length; i += 500)
    await db.runSecond.createMany({ data: seconds.slice(i, i + 500) });
  for (let i = 0; i < resources.length; i += 1000)
    await db.resourceSample.createMany({ data: resources.slice(i, i + 1000) });
  const latency = histogramStatsMs(mergeStoredHistograms(encoded));
  const summary: RunSummary = {
    requests,
    failed,
    errorRate: requests ? failed / requests : null,
    rps: requests / spec.seconds,
    durationMs: spec.seconds * 1000,
    seconds: spec.seconds,
    bytesSent: requests * 120,
    bytesReceived: requests * 800,
    iterations: requests,
    droppedIterations: 0,
    vusMax: 20,
    statusCounts: { '200': requests - failed },
    latency,
    waiting: latency,
    connecting: null,
    tlsHandshaking: null,
    blocked: latency ? { ...latency, p95: 0.01 + rnd() * 0.01 } : null,
    iteration: latency,
    resources: {
      cpuMeanPercent: cpuSum / spec.seconds,
      cpuPeakPercent: cpuPeak,
      rssMeanBytes: rssSum / spec.seconds,
      rssPeakBytes: rssPeak,
      poolWaitMsMean: waitSum / spec.seconds,
      poolWaitMsPeak: null,
      poolInUsePeak: 7,
      poolAcquireTimeouts: 0,
      dbConnectionsPeak: 10,
      dbNewConnsTotal: 9,
      dbTooManyClients: 0,
    },
  };
  await db.run.update({ where: { id: run.id }, data: { summary: toJson.runSummary(summary) } });
  return run.id;
}

/** An experiment of `configs` pool configs x one scenario on an existing target, no runs yet. */
export async function syntheticExperiment(
  db: Db,
  teamId: string,
  targetId: string,
  scenarioId: string,
  configs: Array<string | { id: string; name: string }>,
  repeats: number,
) {
  const pcs: { id: string; name: string }[] = [];
  for (const name of configs)
    pcs.push(
      typeof name !== 'string'
        ? name
        : await db.poolConfig.create({
            data: {
              teamId,
              targetId,
              name: `${name}-${Math.random().toString(36).slice(2, 6)}`,
              strategy: 'lazy',
              params: {},
              instanceCount: 1,
            },
          }),
    );
  const e = await db.experiment.create({
    data: {
      teamId,
      targetId,
      name: 'Synthetic comparison',
      repeats,
      status: 'completed',
      poolConfigs: { create: pcs.map((p, i) => ({ poolConfigId: p.id, position: i })) },
      scenarios: { create: [{ scenarioId, position: 0 }] },
    },
  });
  return { experimentId: e.id, poolConfigs: pcs.map((p) => ({ id: p.id, name: p.name })) };
}

/**
 * `syntheticExperiment` with its runs measured: one pool config per entry of `latencyMs` (named by
 * `configs`), `repeats` runs of each, inserted as the worker runs them (repeat by repeat, config
 * by config); run r of config i draws with seed `seed + 10 r + i`. `runs[i]` are config i's run
 * ids in repeat order.
 */
export async function measuredSyntheticExperiment(
  db: Db,
  at: { teamId: string; targetId: string; scenarioId: string },
  spec: {
    configs: Array<string | { id: string; name: string }>;
    latencyMs: readonly number[];
    repeats: number;
    seconds: number;
    seed: number;
    rps?: number;
    scenarioName?: string;
  },
) {
  const e = await syntheticExperiment(
    db,
    at.teamId,
    at.targetId,
    at.scenarioId,
    spec.configs,
    spec.repeats,
  );
  const runs: string[][] = e.poolConfigs.map(() => []);
  for (let r = 0; r < spec.repeats; r++)
    for (const [i, pc] of e.poolConfigs.entries())
      runs[i]!.push(
        await insertSyntheticRun(db, {
          teamId: at.teamId,
          targetId: at.targetId,
          scenarioId: at.scenarioId,
          experimentId: e.experimentId,
          poolConfigId: pc.id,
          poolConfigName: pc.name,
          scenarioName: spec.scenarioName ?? 'burst',
          repeatIndex: r,
          seconds: spec.seconds,
          latencyMs: spec.latencyMs[i]!,
          rps: spec.rps ?? 50,
          seed: spec.seed + 10 * r + i,
        }),
      );
  return { ...e, runs };
}
