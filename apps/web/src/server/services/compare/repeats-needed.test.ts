import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type Db } from '@poolbench/db';
import { comparisonRepeatsNeeded, runMetric, type RunSummary } from '@poolbench/stats';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import type { CompareItem, Selection } from '~/lib/compare/selection';
import { buildComparison } from './build-comparison';
import { buildRepeatsNeeded } from './repeats-needed';
import { cachedRepeatsNeeded, clearRepeatsNeededCache } from './cached-repeats-needed';
import { loadGroups } from './load-groups';
import { windowSummaries } from './window-summaries';
import { insertSyntheticRun, syntheticExperiment } from './testing/synthetic-runs';

describe('repeats needed to resolve inconclusive verdicts (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  let B: TeamFixture;
  // 3 vs 3 runs, latency halved: inconclusive however clear (3 vs 3 can never reach p < 0.05)
  let few: Awaited<ReturnType<typeof syntheticExperiment>>;
  // 6 vs 6 runs of the same: latency clearly better
  let many: Awaited<ReturnType<typeof syntheticExperiment>>;
  const fewRuns: Record<'lazy' | 'prewarm', string[]> = { lazy: [], prewarm: [] };

  const cellsOf = (e: typeof few): CompareItem[] =>
    e.poolConfigs.map((pc) => ({
      kind: 'cell',
      experimentId: e.experimentId,
      poolConfigId: pc.id,
      scenarioId: A.scenarioId,
    }));
  const summaries = async (ids: string[]): Promise<RunSummary[]> =>
    (
      await db.run.findMany({
        where: { id: { in: ids } },
        select: { id: true, summary: true },
        orderBy: { id: 'asc' },
      })
    ).map((r) => parseRun(r).summary!);
  /** the estimate computed here from the stored runs, the metric's own options spelled out */
  const expected = (key: string, base: RunSummary[], cand: RunSummary[]) => {
    const def = runMetric(key)!;
    const values = (s: RunSummary[]) =>
      s.map((x) => def.value(x)).filter((v): v is number => v !== null && Number.isFinite(v));
    return comparisonRepeatsNeeded(values(base), values(cand), {
      direction: def.direction,
      ...def.options,
    });
  };

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_repeats_needed'));
    services = makeServices();
    A = await makeTeam(db, 'a');
    B = await makeTeam(db, 'b');
    const spec = {
      teamId: A.teamId,
      targetId: A.targetId,
      scenarioId: A.scenarioId,
      scenarioName: 'burst',
      seconds: 12,
      rps: 50,
    };
    few = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['lazy', 'prewarm'], 3);
    many = await syntheticExperiment(
      db,
      A.teamId,
      A.targetId,
      A.scenarioId,
      ['lazy', 'prewarm'],
      6,
    );
    for (let r = 0; r < 3; r++) {
      fewRuns.lazy.push(
        await insertSyntheticRun(db, {
          ...spec,
          experimentId: few.experimentId,
          poolConfigId: few.poolConfigs[0]!.id,
          poolConfigName: 'lazy',
          repeatIndex: r,
          latencyMs: 20,
          seed: 10 + r,
        }),
      );
      fewRuns.prewarm.push(
        await insertSyntheticRun(db, {
          ...spec,
          experimentId: few.experimentId,
          poolConfigId: few.poolConfigs[1]!.id,
          poolConfigName: 'prewarm',
          repeatIndex: r,
          latencyMs: 10,
          seed: 20 + r,
        }),
      );
    }
    for (let r = 0; r < 6; r++) {
      await insertSyntheticRun(db, {
        ...spec,
        experimentId: many.experimentId,
        poolConfigId: many.poolConfigs[0]!.id,
        poolConfigName: 'lazy',
        repeatIndex: r,
        latencyMs: 20,
        seed: 30 + r,
      });
      await insertSyntheticRun(db, {
        ...spec,
        experimentId: many.experimentId,
        poolConfigId: many.poolConfigs[1]!.id,
        poolConfigName: 'prewarm',
        repeatIndex: r,
        latencyMs: 10,
        seed: 40 + r,
      });
    }
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('an inconclusive 3 vs 3 gets, per inconclusive metric, the estimate over its per-run values with its own options', async () => {
    const selection: Selection = { items: cellsOf(few), baseline: 0 };
    const c = await buildComparison(db, A.teamId, selection);
    const view = await cachedRepeatsNeeded(db, A.teamId, selection);
    expect(view.baselineIndex).toBe(0);
    const candidate = c.groups[1]!.key;
    // exactly the table's inconclusive verdicts, nothing else
    const inconclusive = c.rows
      .filter((r) => r.comparisons[1]?.verdict === 'inconclusive')
      .map((r) => r.key);
    expect(inconclusive).toContain('p95Ms');
    expect(view.cells.map((x) => x.metric).sort()).toEqual([...inconclusive].sort());
    expect(view.cells.every((x) => x.groupKey === candidate)).toBe(true);
    const [base, cand] = [await summaries(fewRuns.lazy), await summaries(fewRuns.prewarm)];
    for (const x of view.cells)
      expect(x.repeatsPerSide, x.metric).toBe(expected(x.metric, base, cand));
    // latency halved: a few more runs settle it, never fewer than there already are
    const p95 = view.cells.find((x) => x.metric === 'p95Ms')!.repeatsPerSide!;
    expect(p95).toBeGreaterThanOrEqual(3);
    expect(p95).toBeLessThanOrEqual(6);
    // connection set-up (~10 µs either way) is compared on the linear scale with a 0.05 ms floor: more
    // runs would show no change. On the default log scale with a 5 % floor the same values would not.
    const connect = view.cells.find((x) => x.metric === 'connectP95Ms')!.repeatsPerSide;
    expect(connect).not.toBeNull();
    const values = (s: RunSummary[]) => s.map((x) => x.blocked!.p95);
    expect(connect).not.toBe(
      comparisonRepeatsNeeded(values(base), values(cand), { direction: 'lower-is-better' }),
    );
  });

  it('a clear difference gets no estimate for the metrics that have a verdict', async () => {
    const selection: Selection = { items: cellsOf(many), baseline: 0 };
    const c = await buildComparison(db, A.teamId, selection);
    const verdict = (key: string) => c.rows.find((r) => r.key === key)!.comparisons[1]!.verdict;
    expect(verdict('p95Ms')).toBe('better');
    const view = await cachedRepeatsNeeded(db, A.teamId, selection);
    expect(view.cells.find((x) => x.metric === 'p95Ms')).toBeUndefined();
    for (const x of view.cells) expect(verdict(x.metric), x.metric).toBe('inconclusive');
    expect(view.cells.length).toBe(
      c.rows.filter((r) => r.comparisons[1]?.verdict === 'inconclusive').length,
    );
  });

  it('with a window, the estimate is over the window of each run', async () => {
    const window = { from: 0, to: 5 };
    const selection: Selection = { items: cellsOf(few), baseline: 0, window };
    const view = await cachedRepeatsNeeded(db, A.teamId, selection);
    const w = await windowSummaries(
      db,
      [...fewRuns.lazy, ...fewRuns.prewarm].map((id) => ({ id, finished: true })),
      window,
    );
    const of = (ids: string[]) => ids.map((id) => w.get(id)!);
    const p95 = view.cells.find((x) => x.metric === 'p95Ms')!;
    expect(p95.repeatsPerSide).toBe(expected('p95Ms', of(fewRuns.lazy), of(fewRuns.prewarm)));
    // only the table's metrics
    const only = await cachedRepeatsNeeded(db, A.teamId, {
      ...selection,
      metrics: ['p95Ms', 'rps'],
    });
    expect(only.cells.map((x) => x.metric).sort()).toEqual(
      view.cells
        .map((x) => x.metric)
        .filter((m) => m === 'p95Ms' || m === 'rps')
        .sort(),
    );
    expect(only.cells.map((x) => x.metric)).toContain('p95Ms');
  });

  it('the cached answer is the fresh one, and runs added to a cell make a new one', async () => {
    clearRepeatsNeededCache();
    const selection: Selection = { items: cellsOf(few).reverse() }; // no baseline named: the first
    const first = await cachedRepeatsNeeded(db, A.teamId, selection);
    const again = await cachedRepeatsNeeded(db, A.teamId, selection);
    expect(again.cells).toBe(first.cells); // served from memory
    const groups = await loadGroups(db, A.teamId, selection.items);
    expect(again.cells).toEqual(await buildRepeatsNeeded(db, selection, groups, 0, new Map()));
    // a fourth run of the (now baseline) prewarm cell, as an extended experiment would add
    const spec = {
      teamId: A.teamId,
      experimentId: few.experimentId,
      targetId: A.targetId,
      scenarioId: A.scenarioId,
      scenarioName: 'burst',
      seconds: 12,
      rps: 50,
    };
    await insertSyntheticRun(db, {
      ...spec,
      poolConfigId: few.poolConfigs[1]!.id,
      poolConfigName: 'prewarm',
      repeatIndex: 3,
      latencyMs: 10,
      seed: 23,
    });
    const grown = await cachedRepeatsNeeded(db, A.teamId, selection);
    expect(grown.cells).not.toBe(first.cells);
    expect(grown.cells).toEqual(
      await buildRepeatsNeeded(
        db,
        selection,
        await loadGroups(db, A.teamId, selection.items),
        0,
        new Map(),
      ),
    );
  });

  it('uses the baseline compare.get uses (a saved one among the items), and says whether the experiment can be extended', async () => {
    await db.baseline.create({
      data: {
        teamId: A.teamId,
        name: 'main',
        targetId: A.targetId,
        scenarioId: A.scenarioId,
        experimentId: many.experimentId,
        poolConfigId: many.poolConfigs[1]!.id,
      },
    });
    const caller = callerFor(db, services, A.users.viewer, A.teamId);
    const selection: Selection = { items: cellsOf(many) };
    const shown = await caller.compare.get({ selection });
    const view = await caller.compare.repeatsNeeded({ selection });
    expect(shown.baselineIndex).toBe(1);
    expect(view.baselineIndex).toBe(1);
    expect(view.cells.every((x) => x.groupKey === shown.groups[0]!.key)).toBe(true);
    const inconclusive = shown.rows
      .filter((r) => r.comparisons[0]?.verdict === 'inconclusive')
      .map((r) => r.key);
    expect(view.cells.map((x) => x.metric).sort()).toEqual(inconclusive.sort());
    expect(view.experiments).toEqual([
      {
        id: many.experimentId,
        name: 'Synthetic comparison',
        repeats: 6,
        running: false,
        maxAddRepeats: 44,
      },
    ]);
    // extending it queues new runs: it is running (read fresh, whatever is cached)
    await callerFor(db, services, A.users.member, A.teamId).experiment.extend({
      id: many.experimentId,
      addRepeats: 2,
    });
    const after = await caller.compare.repeatsNeeded({ selection });
    expect(after.experiments[0]).toMatchObject({ repeats: 8, running: true, maxAddRepeats: 42 });
    expect(after.cells).toEqual(view.cells); // queued runs are not measured yet
  });

  it("another team's cells are NOT_FOUND, with a warm cache too", async () => {
    const selection: Selection = { items: cellsOf(few), baseline: 0 };
    await cachedRepeatsNeeded(db, A.teamId, selection);
    await expect(cachedRepeatsNeeded(db, B.teamId, selection)).rejects.toThrow('not found');
    await expect(
      cachedRepeatsNeeded(db, B.teamId, {
        items: [
          { kind: 'run', runId: fewRuns.lazy[0]! },
          { kind: 'run', runId: B.runIds[0]! },
        ],
      }),
    ).rejects.toThrow('not found');
  });
});
