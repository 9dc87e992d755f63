import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson, type Db, type Prisma } from '@poolbench/db';
import { scenarioToColumns } from '@poolbench/db';
import { createHistogram, encodeHistogram, mergeHistograms, percentileMs } from '@poolbench/stats';
import { withTempDatabase } from '~/test/temp-database';
import { makeTeam, type TeamFixture } from '~/test/fixtures';
import { sweepSteps } from './sweep-steps';

const SWEEP = {
  template: 'arrival-rate-sweep',
  params: {
    startRatePerSec: 100,
    stepRatePerSec: 100,
    steps: 4,
    stepDurationMs: 5000,
    preAllocatedVUs: 20,
  },
  requests: [{ path: '/work' }],
};

describe('sweepSteps (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let A: TeamFixture;
  let B: TeamFixture;
  let runId: string;
  const encoded: string[][] = [[], [], [], []];

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_sweep'));
    A = await makeTeam(db, 'a');
    B = await makeTeam(db, 'b');
    const cols = scenarioToColumns(SWEEP);
    runId = A.runIds[0]!;
    await db.run.update({
      where: { id: runId },
      data: {
        status: 'succeeded',
        scenarioSnapshot: toJson.scenarioSnapshot({
          name: 'sweep',
          templateId: cols.templateId,
          params: cols.params,
          thresholds: [],
        }),
      },
    });
    // 4 steps x 5 s: steps 1-3 keep up with ~10 ms latency; step 4 gets 300 of its 400 req/s at 80 ms
    const rows: Prisma.RunSecondCreateManyInput[] = [];
    for (let s = 0; s < 20; s++) {
      const step = Math.floor(s / 5);
      const target = 100 * (step + 1);
      const requests = step === 3 ? 300 : target;
      const h = createHistogram();
      for (let i = 0; i < requests; i++)
        h.recordValue((step === 3 ? 80_000 : 10_000) + ((i * 37) % 2000));
      const b64 = encodeHistogram(h);
      // the step's inner seconds (its first second shares time with the previous step)
      if (s % 5 !== 0) encoded[step]!.push(b64);
      rows.push({
        runId,
        second: s,
        ts: new Date(1_700_000_000_000 + s * 1000),
        requests,
        failed: step === 3 ? 9 : 0,
        statusCounts: {},
        bytesSent: 0n,
        bytesReceived: 0n,
        iterations: requests,
        droppedIterations: target - requests,
        vus: 10,
        vusMax: 10,
        durationHist: new Uint8Array(Buffer.from(b64, 'base64')),
      });
    }
    await db.runSecond.createMany({ data: rows });
  });
  afterAll(async () => dispose?.());

  it('splits the run into its steps, with exact percentiles, and names the first step that broke', async () => {
    const r = (await sweepSteps(db, A.teamId, runId))!;
    expect(r.steps.map((s) => [s.targetRatePerSec, s.fromSec, s.toSec, s.seconds])).toEqual([
      [100, 1, 5, 4],
      [200, 6, 10, 4],
      [300, 11, 15, 4],
      [400, 16, 20, 4],
    ]);
    expect(r.steps.map((s) => s.achievedRatePerSec)).toEqual([100, 200, 300, 300]);
    for (const [i, s] of r.steps.entries()) {
      const merged = mergeHistograms(encoded[i]!);
      expect(s.p99Ms).toBe(percentileMs(merged, 99));
      expect(s.requests).toBe(merged.totalCount);
    }
    expect(r.steps[3]!.droppedIterations).toBe(400);
    expect(r.steps[3]!.errorRate).toBeCloseTo(9 / 300, 12);
    expect(r.steps.slice(0, 3).every((s) => s.breaks.length === 0)).toBe(true);
    expect(r.steps[3]!.breaks).toEqual(['throughput', 'errors', 'latency']);
    expect(r.breakingStep).toBe(3);
    expect(r.sustainedRatePerSec).toBe(300);
  });

  it('is null for runs of other templates, and NOT_FOUND for another team', async () => {
    expect(await sweepSteps(db, A.teamId, A.runIds[1]!)).toBeNull();
    await expect(sweepSteps(db, B.teamId, runId)).rejects.toThrow('not found');
  });
});
