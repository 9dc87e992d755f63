import { createHistogram, encodeHistogram, histogramStatsMs } from '@poolbench/stats';
import { createDb, type Db, type Prisma } from '@poolbench/db';
import { seed } from '../seed/seed';
import { finalizeFromStored } from '../finalize-from-stored';
import { windowSummaries } from '../summaries/window-summaries';
import { withTempDatabase } from '@poolbench/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedSecondsBefore,
  mergeSecondRows,
  mergeSegmentSeconds,
  segmentKey,
} from './merge-segment-seconds';

type SecondRow = Prisma.RunSecondGetPayload<object>;

describe('merging generator seconds (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let runId: string;
  let newRun: () => Promise<string>;
  const t0 = new Date('2026-11-24T00:00:00Z');
  beforeAll(async () => {
    const t = await withTempDatabase('runs_segments');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 8 });
    const ids = await seed(db);
    const exp = await db.experiment.create({
      data: {
        teamId: ids.teamId,
        targetId: ids.targetId,
        name: 'segments',
        repeats: 1,
        loadGenerators: 3,
      },
    });
    let sequence = 0;
    newRun = async () =>
      (
        await db.run.create({
          data: {
            teamId: ids.teamId,
            experimentId: exp.id,
            targetId: ids.targetId,
            repeatIndex: 0,
            sequence: sequence++,
            poolConfigSnapshot: {},
            scenarioSnapshot: {},
            targetSnapshot: {},
            loadGenerators: 3,
          },
        })
      ).id;
    runId = await newRun();
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
  });

  const write = (
    gen: number,
    second: number,
    requests: number,
    vusAllocated: number | null = 5,
    checkFailed = 0,
    run = runId,
  ) =>
    db.runSecond.create({
      data: {
        runId: run,
        second,
        segment: segmentKey(gen),
        ts: new Date(t0.getTime() + second * 1000),
        requests,
        failed: checkFailed,
        checkFailed,
        statusCounts: { '200': requests },
        bytesSent: 1n,
        bytesReceived: 2n,
        iterations: requests,
        droppedIterations: 0,
        vus: 2,
        vusMax: 5,
        vusAllocated,
      },
    });

  it('a second is closed only when every generator has written a later one, however late one of them is', async () => {
    expect(await closedSecondsBefore(db, runId, 3)).toBeNull();
    for (const g of [0, 1, 2]) await write(g, 0, 10);
    await write(0, 1, 10);
    await write(1, 1, 10);
    await write(0, 2, 10);
    // generator 2 wrote second 0 only (a loaded generator): nothing after second 0 is closed yet
    expect(await closedSecondsBefore(db, runId, 3)).toBe(0);
    expect(await closedSecondsBefore(db, runId, 4)).toBeNull();
    await write(2, 1, 7);
    expect(await closedSecondsBefore(db, runId, 3)).toBe(1);
    const live = await mergeSegmentSeconds(db, runId, { from: -5, to: 1 });
    expect(live.map((r) => [r.second, r.requests, r.vusAllocated])).toEqual([[0, 30, 15]]);
    // the final merge rewrites every second, idempotently
    const all = await mergeSegmentSeconds(db, runId);
    expect(all.map((r) => [r.second, r.requests])).toEqual([
      [0, 30],
      [1, 27],
      [2, 10],
    ]);
    expect(await db.runSecond.count({ where: { runId, segment: 'all' } })).toBe(3);
  });

  it('merges of one run running at once (live and final, or two workers) all succeed and agree', async () => {
    for (let sec = 3; sec < 40; sec++) for (const g of [0, 1, 2]) await write(g, sec, sec + g);
    // Every overlapping window at once: without serialisation two deletes see no row and both
    // inserts collide on the primary key (the failure seen on a loaded machine).
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        mergeSegmentSeconds(db, runId, i % 3 === 0 ? {} : { from: 3 + i, to: 40 }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const stored = await db.runSecond.findMany({
      where: { runId, segment: 'all', second: { gte: 3 } },
      orderBy: { second: 'asc' },
    });
    expect(stored.map((r) => [r.second, r.requests])).toEqual(
      Array.from({ length: 37 }, (_, i) => [i + 3, 3 * (i + 3) + 3]),
    );
  });

  it("a run rebuilt from its generators' stored seconds keeps the requests that failed a check", async () => {
    const crashed = await newRun();
    await db.runSegment.createMany({
      data: [0, 1, 2].map((index) => ({ runId: crashed, index, baseUrls: [] })),
    });
    // generator 0 saw 2 + 1 check failures, generator 2 saw 4; generator 1 none
    for (const [gen, second, checkFailed] of [
      [0, 0, 2],
      [1, 0, 0],
      [2, 0, 4],
      [0, 1, 1],
      [1, 1, 0],
      [2, 1, 0],
    ] as const)
      await write(gen, second, 50, 5, checkFailed, crashed);
    const final = await finalizeFromStored(db, crashed);
    // and the most VUs the three allocated together (5 each)
    expect(final?.summary).toMatchObject({
      requests: 300,
      failed: 7,
      checkFailed: 7,
      vusAllocatedMax: 15,
    });
    const merged = await db.runSecond.findMany({
      where: { runId: crashed, segment: 'all' },
      orderBy: { second: 'asc' },
    });
    expect(merged.map((r) => [r.second, r.failed, r.checkFailed])).toEqual([
      [0, 6, 6],
      [1, 1, 1],
    ]);
    // a window over the second second alone counts that second's one
    const windows = await windowSummaries(db, [{ id: crashed, finished: true }], {
      from: 1,
      to: 2,
    });
    expect(windows.get(crashed)).toMatchObject({
      requests: 150,
      failed: 1,
      checkFailed: 1,
      vusAllocatedMax: 15,
    });
  });
});

describe('mergeSecondRows', () => {
  const row = (
    gen: number,
    checks: Prisma.JsonValue,
    subMetrics: Prisma.JsonValue = null,
  ): SecondRow => ({
    runId: 'r',
    second: 40,
    segment: segmentKey(gen),
    ts: new Date('2026-11-24T00:00:40Z'),
    requests: 10,
    failed: 0,
    statusCounts: { '200': 10 },
    bytesSent: 1n,
    bytesReceived: 2n,
    iterations: 10,
    droppedIterations: 0,
    checkFailed: 0,
    vus: 2,
    vusMax: 5,
    vusAllocated: 5,
    p50Ms: null,
    p90Ms: null,
    p95Ms: null,
    p99Ms: null,
    p999Ms: null,
    maxMs: null,
    meanMs: null,
    connectingP95Ms: null,
    blockedP95Ms: null,
    durationHist: null,
    waitingHist: null,
    connectingHist: null,
    tlsHist: null,
    blockedHist: null,
    iterationHist: null,
    checks,
    custom: null,
    subMetrics,
  });

  it("adds the generators' checks of a second up per name and group", () => {
    const merged = mergeSecondRows('r', 40, [
      row(0, { items: [{ name: 'ok', group: '', passes: 5, fails: 1 }] }),
      row(1, {
        items: [
          { name: 'ok', group: '', passes: 4, fails: 0 },
          { name: 'token', group: '::login', passes: 0, fails: 2 },
        ],
        overflow: { passes: 1, fails: 0 },
      }),
      row(2, null),
    ]);
    expect(merged.checks).toEqual({
      items: [
        { name: 'ok', group: '', passes: 9, fails: 1 },
        { name: 'token', group: '::login', passes: 0, fails: 2 },
      ],
      overflow: { passes: 1, fails: 0 },
      passes: 10,
      fails: 3,
    });
  });

  it("adds up each tagged series of a second: counts add, a trend's histograms merge exactly", () => {
    const trend = (values: number[]) => {
      const h = createHistogram();
      for (const v of values) h.recordValue(v * 1000);
      return { type: 'trend', count: values.length, histogram: encodeHistogram(h) };
    };
    const me = 'http_req_duration{name:me}';
    const err = 'http_reqs{status:500}';
    const merged = mergeSecondRows('r', 40, [
      row(0, null, { [me]: trend([10, 20, 30]), [err]: { type: 'counter', count: 2, sum: 2 } }),
      row(1, null, { [me]: trend([40, 50]) }),
      row(2, null),
    ]);
    // the trend: exactly the histogram of all five samples recorded in one place
    const all = createHistogram();
    for (const v of [10, 20, 30, 40, 50]) all.recordValue(v * 1000);
    expect(merged.subMetrics).toMatchObject({
      [err]: { type: 'counter', count: 2, sum: 2 },
      [me]: { type: 'trend', count: 5, trend: histogramStatsMs(all) },
    });
  });
});
