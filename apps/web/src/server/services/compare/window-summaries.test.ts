import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson, type Db, type Prisma } from '@poolbench/db';
import {
  buildRunSummary,
  createHistogram,
  encodeHistogram,
  histogramStatsMs,
  loadTimeMs,
  type RunSummary,
} from '@poolbench/stats';
import { withTempDatabase } from '~/test/temp-database';
import { makeTeam } from '~/test/fixtures';
import { windowSummaries } from './window-summaries';
import { createSyntheticRun, prng, syntheticExperiment } from './testing/synthetic-runs';

const RATE = 300;
const LOAD_S = 10;

/**
 * A run as the worker stores it for a constant arrival rate of 300/s for 10 s: second 0 is the
 * unix second the worker started in, k6 start-up and setup() take `offsetMs`, every request is
 * put in the second it ended in (5-9 ms after it started), setup and teardown seconds carry only
 * the vus gauge, and the summary holds the load phase the k6 output reports.
 */
async function insertPhasedRun(
  db: Db,
  spec: Parameters<typeof createSyntheticRun>[1],
  offsetMs: number,
  seed: number,
) {
  const rnd = prng(seed);
  const run = await createSyntheticRun(db, spec);
  const t0Ms = Math.floor(Date.now() / 1000 - 3600) * 1000;
  const startMs = t0Ms + offsetMs;
  const bySecond = new Map<number, number[]>();
  let endMs = startMs;
  for (let k = 0; k < RATE * LOAD_S; k++) {
    const latency = 5 + 4 * rnd();
    const end = startMs + (k * 1000) / RATE + latency;
    endMs = Math.max(endMs, end);
    const s = Math.floor((end - t0Ms) / 1000);
    bySecond.set(s, [...(bySecond.get(s) ?? []), latency]);
  }
  const lastSecond = Math.floor((endMs - t0Ms) / 1000) + 1; // one teardown second after the load
  const rows: Prisma.RunSecondCreateManyInput[] = [];
  for (let s = 0; s <= lastSecond; s++) {
    const lat = bySecond.get(s) ?? [];
    const h = createHistogram();
    for (const ms of lat) h.recordValue(Math.round(ms * 1000));
    rows.push({
      runId: run.id,
      second: s,
      ts: new Date(t0Ms + s * 1000),
      requests: lat.length,
      failed: 0,
      statusCounts: lat.length ? { '200': lat.length } : {},
      bytesSent: BigInt(lat.length * 100),
      bytesReceived: BigInt(lat.length * 500),
      iterations: lat.length,
      droppedIterations: 0,
      vus: 20,
      vusMax: 20,
      durationHist: lat.length ? new Uint8Array(Buffer.from(encodeHistogram(h), 'base64')) : null,
    });
  }
  await db.runSecond.createMany({ data: rows });
  const load = { startMs, endMs: Math.floor(endMs) };
  const summary: RunSummary = buildRunSummary({
    counters: {
      requests: RATE * LOAD_S,
      failed: 0,
      status: { '200': RATE * LOAD_S },
      dataSentBytes: 0,
      dataReceivedBytes: 0,
      iterations: RATE * LOAD_S,
      droppedIterations: 0,
    },
    trends: { http_req_duration: histogramStatsMs(createHistogram()) },
    seconds: rows.length,
    vusMax: 20,
    loadMs: loadTimeMs(load, null, []),
    load,
    resources: [],
  });
  await db.run.update({ where: { id: run.id }, data: { summary: toJson.runSummary(summary) } });
  return { id: run.id, summary };
}

describe('windowSummaries throughput (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let early: { id: string; summary: RunSummary };
  let late: { id: string; summary: RunSummary };

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_window_rps'));
    const team = await makeTeam(db, 'w');
    const exp = await syntheticExperiment(
      db,
      team.teamId,
      team.targetId,
      team.scenarioId,
      ['lazy'],
      2,
    );
    const spec = {
      teamId: team.teamId,
      experimentId: exp.experimentId,
      targetId: team.targetId,
      poolConfigId: exp.poolConfigs[0]!.id,
      scenarioId: team.scenarioId,
      poolConfigName: 'lazy',
      scenarioName: 'constant',
      seconds: 13,
    };
    // The same load, once starting early in its second and once late in it.
    early = await insertPhasedRun(db, { ...spec, repeatIndex: 0 }, 1_100, 1);
    late = await insertPhasedRun(db, { ...spec, repeatIndex: 1 }, 1_900, 2);
  });
  afterAll(async () => dispose?.());

  const windowed = async (from: number, to: number) => {
    const m = await windowSummaries(
      db,
      [early, late].map((r) => ({ id: r.id, finished: true })),
      { from, to },
    );
    return [m.get(early.id)!, m.get(late.id)!];
  };

  it('a whole-run window equals the whole-run rps (setup and teardown seconds are not load)', async () => {
    for (const [w, run] of (await windowed(0, 1000)).map(
      (w, i) => [w, [early, late][i]!] as const,
    )) {
      expect(w.requests).toBe(RATE * LOAD_S);
      expect(w.rps).toBeCloseTo(run.summary.rps!, 9);
      expect(Math.abs(w.rps! - RATE) / RATE).toBeLessThan(0.005);
    }
  });

  it('identical loads offset on the second grid read the same windowed rps within 0.5 %', async () => {
    for (const [from, to] of [
      [0, 6],
      [0, 4],
      [3, 8],
      [8, 1000],
      [2, 12],
    ] as const) {
      const [a, b] = await windowed(from, to);
      const rel = Math.abs(a!.rps! - b!.rps!) / b!.rps!;
      expect(rel, `window [${from}, ${to}): ${a!.rps} vs ${b!.rps}`).toBeLessThan(0.005);
      expect(
        Math.abs(a!.rps! - RATE) / RATE,
        `window [${from}, ${to}) reads ${a!.rps}`,
      ).toBeLessThan(0.01);
    }
  });
});
