import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCoverage, pivotCellColor } from '~/components/compare/format-metric';
import { experimentPivot } from './pivot';
import { parseRun, toJson, type Db } from '@poolbench/db';
import { compareRunGroups, type RunSummary } from '@poolbench/stats';
import { withTempDatabase } from '~/test/temp-database';
import { makeTeam, type TeamFixture } from '~/test/fixtures';
import { buildComparison } from './build-comparison';
import { readSeconds } from './read-seconds';
import { insertSyntheticRun, syntheticExperiment } from './testing/synthetic-runs';
import { buildExport } from '../exports/build-export';

describe('buildComparison (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let A: TeamFixture;
  let B: TeamFixture;
  let exp: Awaited<ReturnType<typeof syntheticExperiment>>;
  const lazy: string[] = [];
  const prewarm: string[] = [];

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_compare'));
    A = await makeTeam(db, 'a');
    B = await makeTeam(db, 'b');
    exp = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['lazy', 'prewarm'], 3);
    const base = {
      teamId: A.teamId,
      experimentId: exp.experimentId,
      targetId: A.targetId,
      scenarioId: A.scenarioId,
      scenarioName: 'burst',
      seconds: 12,
      rps: 50,
    };
    for (let r = 0; r < 3; r++) {
      lazy.push(
        await insertSyntheticRun(db, {
          ...base,
          poolConfigId: exp.poolConfigs[0]!.id,
          poolConfigName: 'lazy',
          repeatIndex: r,
          latencyMs: 20,
          seed: 10 + r,
        }),
      );
      prewarm.push(
        await insertSyntheticRun(db, {
          ...base,
          poolConfigId: exp.poolConfigs[1]!.id,
          poolConfigName: 'prewarm',
          repeatIndex: r,
          latencyMs: 10,
          seed: 20 + r,
          // one run measured on another machine
          ...(r === 2
            ? {
                environment: {
                  cpuModel: 'Other CPU',
                  cpuCount: 8,
                  k6Version: 'k6 v1.8.1',
                  labTargetVersion: 'lab 0.1.0',
                },
              }
            : {}),
        }),
      );
    }
  });
  afterAll(async () => dispose?.());

  const cells = () =>
    exp.poolConfigs.map((pc) => ({
      kind: 'cell' as const,
      experimentId: exp.experimentId,
      poolConfigId: pc.id,
      scenarioId: A.scenarioId,
    }));

  it('compares cells with the stats package, one value per run, and says why a verdict is weak', async () => {
    const c = await buildComparison(db, A.teamId, { items: cells() });
    expect(c.groups.map((g) => [g.label, g.repeats])).toEqual([
      ['lazy', 3],
      ['prewarm', 3],
    ]);
    const summaries = async (ids: string[]) =>
      (
        await db.run.findMany({ where: { id: { in: ids } }, select: { id: true, summary: true } })
      ).map((r) => parseRun(r).summary);
    const expected = compareRunGroups(
      { label: 'lazy', summaries: await summaries(lazy) },
      { label: 'prewarm', summaries: await summaries(prewarm) },
    );
    const p95 = c.rows.find((r) => r.key === 'p95Ms')!.comparisons[1]!;
    const exp95 = expected.metrics.find((m) => m.def.key === 'p95Ms')!;
    expect(p95.changePercent).toEqual(exp95.changePercent);
    expect(p95.pValue).toBe(exp95.pValue);
    expect(p95.changePercent!.estimate).toBeLessThan(-30); // half the latency
    expect(p95.verdict).toBe('inconclusive'); // 3 vs 3 runs can never reach p < 0.05
    // the widest interval 3 vs 3 runs allow covers 1 − 2/C(6,3) = 90 %, not the nominal 95 %: said, not hidden
    expect(p95.achievedConfidence).toBeCloseTo(0.9, 10);
    expect(formatCoverage(p95.achievedConfidence)).toBe('90 %');
    const max = c.rows.find((r) => r.key === 'maxMs')!;
    expect(max.tested).toBe(false);
    expect(max.comparisons[1]!.verdict).toBeNull();
    expect(c.warnings.map((w) => w.code).sort()).toEqual([
      'environment-differs',
      'few-repeats',
      'low-requests',
    ]);
    expect(c.warnings.find((w) => w.code === 'environment-differs')!.message).toContain('cpuModel');
    // all-requests percentiles from merged histograms
    expect(c.groups[0]!.merged!.count).toBe(c.groups[0]!.requests);
    expect(c.spectrum.find((s) => s.percentile === 50)!.values[0]!).toBeGreaterThan(
      c.spectrum.find((s) => s.percentile === 50)!.values[1]!,
    );
  });

  it('the matrix tests each cell against the column reference and colours only verdicts that hold', async () => {
    const p = await experimentPivot(db, A.teamId, exp.experimentId, 'p95Ms');
    expect(p.rows.map((r) => r.name.split('-')[0])).toEqual(['lazy', 'prewarm']);
    const [ref, cand] = [p.rows[0]!.cells[0]!, p.rows[1]!.cells[0]!];
    expect(ref).toMatchObject({ n: 3, verdict: null }); // the reference is not tested against itself
    // prewarm's median is half of lazy's, but 3 vs 3 runs can never be significant: no colour
    expect(cand.median!).toBeLessThan(ref.median! * 0.7);
    expect(cand.verdict).toBe('inconclusive');
    expect(pivotCellColor(cand.verdict)).toBe('transparent');
    expect(pivotCellColor('better')).not.toBe('transparent');
    expect(pivotCellColor('worse')).not.toBe('transparent');
  });

  it('gateMetrics tests only those metrics, adjusts over them alone and says why the others have no verdict', async () => {
    const all = await buildComparison(db, A.teamId, { items: cells() });
    const gated = await buildComparison(
      db,
      A.teamId,
      { items: cells() },
      { gateMetrics: ['p95Ms'] },
    );
    const p95 = (c: typeof all) => c.rows.find((r) => r.key === 'p95Ms')!.comparisons[1]!;
    // every prewarm run beats every lazy run: the unadjusted 3-vs-3 p, 2 / C(6, 3), with nothing to adjust over
    expect(p95(gated).pValue).toBeCloseTo(2 / 20, 12);
    expect(p95(all).pValue).toBeGreaterThan(0.1); // adjusted across every tested metric
    expect(p95(gated).changePercent).toEqual(p95(all).changePercent);
    const p50 = gated.rows.find((r) => r.key === 'p50Ms')!;
    expect(p50.tested).toBe(true);
    expect(p50.comparisons[1]).toMatchObject({
      verdict: null,
      pValue: null,
      reason: 'not among the metrics this comparison is gated on',
    });
    expect(p50.cells[1]!.median).not.toBeNull(); // still shown
  });

  it('bands are the median, min and max across repeats per second, bucketed without losing extremes', async () => {
    const c = await buildComparison(db, A.teamId, { items: cells() }, { maxPoints: 500 });
    const rows = await readSeconds(db, lazy, null);
    const at3 = rows
      .filter((r) => r.second === 3)
      .map((r) => r.requests)
      .sort((a, b) => a - b);
    expect(c.series.rps[3]!.values[0]).toEqual({ med: at3[1], min: at3[0], max: at3[2] });
    expect(c.series.rps).toHaveLength(12);
    // the database connections chart, as on the run page (the synthetic target holds 10)
    expect(c.series.dbTotal[3]!.values[0]).toEqual({ med: 10, min: 10, max: 10 });
    const coarse = await buildComparison(db, A.teamId, { items: cells() }, { maxPoints: 4 });
    expect(coarse.series.p99Ms.length).toBeLessThanOrEqual(4);
    const fineMax = Math.max(...c.series.p99Ms.map((p) => p.values[0]!.max));
    expect(Math.max(...coarse.series.p99Ms.map((p) => p.values[0]!.max))).toBe(fineMax);
  });

  it('a time window limits series and merged percentiles', async () => {
    const c = await buildComparison(db, A.teamId, { items: cells(), window: { from: 4, to: 8 } });
    expect(c.series.rps.map((p) => p.second)).toEqual([4, 5, 6, 7]);
    const rows = (await readSeconds(db, lazy, { from: 4, to: 8 })).reduce(
      (a, r) => a + r.requests,
      0,
    );
    expect(c.groups[0]!.merged!.count).toBe(rows);
  });

  it('with a window, the statistics are over that window of each run too, recomputed from its rows', async () => {
    const window = { from: 0, to: 5 }; // the cold start: a latency bump and new connections
    const whole = await buildComparison(db, A.teamId, { items: cells() });
    const c = await buildComparison(db, A.teamId, { items: cells(), window });
    const row = (x: typeof c, key: string) => x.rows.find((r) => r.key === key)!;
    const med = (vs: number[]) => [...vs].sort((a, b) => a - b)[(vs.length - 1) / 2]!;
    // throughput: requests in the window per second of the window, per run; the cell is their median
    const perRun = await Promise.all(
      lazy.map(
        async (id) => (await readSeconds(db, [id], window)).reduce((a, r) => a + r.requests, 0) / 5,
      ),
    );
    expect(row(c, 'rps').cells[0]!.median).toBeCloseTo(med(perRun), 9);
    // latency: the cold start is slower than the whole run, and the merged window histogram agrees
    expect(row(c, 'p95Ms').cells[0]!.median!).toBeGreaterThan(
      row(whole, 'p95Ms').cells[0]!.median!,
    );
    expect(row(c, 'p95Ms').cells[0]!.max!).toBeLessThanOrEqual(
      c.spectrum.find((s) => s.percentile === 100)!.values[0]!,
    );
    // connection set-up from the stored blocked histograms: ~2.5-3.5 ms in the window, µs after it
    expect(row(c, 'connectP95Ms').cells[0]!.median!).toBeGreaterThan(2);
    const late = await buildComparison(db, A.teamId, {
      items: cells(),
      window: { from: 6, to: 12 },
    });
    expect(row(late, 'connectP95Ms').cells[0]!.median!).toBeLessThan(0.1);
    // target resources over the window's samples only (rss grows by 2 kB per second)
    expect(row(c, 'rssPeakBytes').cells[0]!.median!).toBeLessThan(
      row(late, 'rssPeakBytes').cells[0]!.median! + 4 * 2 ** 20,
    );
    // still compared with the stats package, every run counted
    expect(row(c, 'p95Ms').comparisons[1]!.n).toBe(3);
    expect(row(c, 'p95Ms').comparisons[1]!.changePercent!.estimate).toBeLessThan(-30);
    // a window past the end of every run leaves nothing to compare, and says so
    const empty = await buildComparison(db, A.teamId, {
      items: cells(),
      window: { from: 100, to: 200 },
    });
    expect(row(empty, 'p95Ms').cells[0]!.n).toBe(0);
    expect(row(empty, 'p95Ms').comparisons[1]!.reason).toBe('no values to compare');
  });

  it('exports of a windowed comparison carry the per-run summaries over the window', async () => {
    const c = await buildComparison(db, A.teamId, { items: cells(), window: { from: 0, to: 5 } });
    const json = JSON.parse((await buildExport(db, c, 'json', { title: 't' })).body) as {
      window: unknown;
      runs: Array<{ id: string; summary: RunSummary }>;
    };
    expect(json.window).toEqual({ from: 0, to: 5 });
    expect(json.runs).toHaveLength(6);
    for (const r of json.runs) expect(r.summary.seconds).toBe(5);
    const p95 = (id: string) => json.runs.find((r) => r.id === id)!.summary.latency!.p95;
    const lazyP95 = lazy.map(p95).sort((a, b) => a - b)[1];
    expect(c.rows.find((r) => r.key === 'p95Ms')!.cells[0]!.median).toBe(lazyP95);
    const csv = (await buildExport(db, c, 'summary-csv', { title: 't' })).body.trim().split('\n');
    const header = csv[0]!.split(',');
    const row = csv
      .slice(1)
      .find((l) => l.includes(lazy[0]!))!
      .split(',');
    expect(Number(row[header.indexOf('p95Ms')])).toBe(p95(lazy[0]!));
  });

  it("compares and exports the script's own metrics and its checks", async () => {
    // each run recorded a trend and a check in its first second, the summary holding the same
    const all = [...lazy, ...prewarm];
    for (const [i, id] of all.entries()) {
      const p = i < 3 ? 10 + i : 20 + i; // lazy 10, 11, 12; prewarm 23, 24, 25
      const trend = { count: 4, min: p, max: p, mean: p, p50: p, p90: p, p95: p, p99: p, p999: p };
      const custom = { login_ms: { type: 'trend', count: 4, trend } };
      const checks = {
        items: [{ name: 'status is 200', group: '', passes: 4 - (i % 2), fails: i % 2 }],
      };
      await db.runSecond.updateMany({
        where: { runId: id, second: 0 },
        data: { custom: toJson.customMetrics(custom), checks: toJson.secondChecks(checks) },
      });
      const run = parseRun(
        (await db.run.findUniqueOrThrow({ where: { id } })) as { summary: unknown },
      );
      await db.run.update({
        where: { id },
        data: {
          summary: toJson.runSummary({
            ...run.summary,
            custom,
            checks: { ...checks, passes: 4 - (i % 2), fails: i % 2 },
          }),
        },
      });
    }
    const c = await buildComparison(db, A.teamId, { items: cells() });
    const p50 = c.scriptMetrics.find((r) => r.name === 'login_ms' && r.stat === 'p50')!;
    expect(p50.cells).toEqual([
      { median: 11, n: 3 },
      { median: 24, n: 3 },
    ]);
    expect(p50.diffs[1]!.absolute).toBeCloseTo(13, 12);
    expect(p50.diffs[1]!.percent).toBeCloseTo((100 * 13) / 11, 12);

    const json = JSON.parse((await buildExport(db, c, 'json', { title: 't' })).body) as {
      scriptMetrics: unknown;
      runs: Array<{ id: string; custom: unknown; checks: { passes: number } }>;
      seconds: Array<{ runId: string; second: number; custom: unknown }>;
    };
    expect(json.scriptMetrics).toEqual(c.scriptMetrics);
    const first = json.runs.find((r) => r.id === lazy[1])!;
    expect(first.custom).toMatchObject({ login_ms: { type: 'trend', trend: { p95: 11 } } });
    expect(first.checks.passes).toBe(3);
    expect(json.seconds.find((s) => s.runId === lazy[1] && s.second === 0)!.custom).toMatchObject({
      login_ms: { trend: { p99: 11 } },
    });

    const csv = (body: string) =>
      body
        .trim()
        .split('\r\n')
        .map((l) => l.split(','));
    const summary = csv((await buildExport(db, c, 'summary-csv', { title: 't' })).body);
    const row = summary.find((l) => l.includes(prewarm[0]!))!;
    const at = (h: string) => row[summary[0]!.indexOf(h)];
    expect(at('custom:login_ms:p95_ms')).toBe('23');
    expect([at('check:status is 200:passes'), at('check:status is 200:fails')]).toEqual(['3', '1']);
    const series = csv((await buildExport(db, c, 'csv', { title: 't' })).body);
    const col = (h: string) => series[0]!.indexOf(h);
    const s0 = series.find((l) => l[1] === lazy[0] && l[2] === '0')!;
    const s1 = series.find((l) => l[1] === lazy[0] && l[2] === '1')!;
    expect([s0[col('custom:login_ms:p99_ms')], s0[col('check:status is 200:passes')]]).toEqual([
      '10',
      '4',
    ]);
    expect(s1[col('custom:login_ms:p99_ms')]).toBe('');

    // the shared report and the HTML export show them too
    const html = (await buildExport(db, c, 'html', { title: 't' })).body;
    expect(html).toContain('Script metrics');
    expect(html).toContain('+13.0 ms (+118 %)');
  });

  it("another team's runs and cells are NOT_FOUND", async () => {
    await expect(buildComparison(db, B.teamId, { items: cells() })).rejects.toThrow('not found');
    await expect(
      buildComparison(db, B.teamId, {
        items: [
          { kind: 'run', runId: lazy[0]! },
          { kind: 'run', runId: B.runIds[0]! },
        ],
      }),
    ).rejects.toThrow('not found');
  });
});
