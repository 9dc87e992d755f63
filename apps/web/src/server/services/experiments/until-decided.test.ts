import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperiment, parseRun, toJson, type Db, type SequentialState } from '@poolbench/db';
import { continueSequential, extendExperiment, launchExperiment } from '@poolbench/runs';
import { withTempDatabase } from '~/test/temp-database';
import { expectValidAs } from '~/test/rest';
import { experimentView } from '~/server/services/ci/experiment-view';
import { makeTeam, type TeamFixture } from '~/test/fixtures';
import { measuredSyntheticExperiment } from '~/server/services/compare/testing/synthetic-runs';

/**
 * "Until decided, at most N repeats per side" on real Postgres: each time every run has ended the
 * sequential rule is asked; the experiment grows by a pair until each metric is decided or N is
 * reached. Runs are "measured" by giving them stored summaries of synthetic runs (A ~10 ms, B ~40
 * ms, the same throughput), so the rule must call B worse on p95 and decide before the budget.
 */
describe('until decided (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let T: TeamFixture;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_until_decided'));
    T = await makeTeam(db, 'seq');
  });
  afterAll(async () => dispose?.());

  // summaries to hand out: 20 synthetic runs per latency, different draws (made once)
  let made: Promise<Record<'a' | 'b', unknown[]>> | null = null;
  const summaries = () => (made ??= makeSummaries());
  const makeSummaries = async () => {
    const scratch = await measuredSyntheticExperiment(db, T, {
      configs: ['a', 'b'],
      latencyMs: [10, 40],
      repeats: 20,
      seconds: 10,
      seed: 1000,
      scenarioName: 's',
    });
    const summaryOf = async (id: string) =>
      parseRun(await db.run.findUniqueOrThrow({ where: { id } })).summary;
    return {
      a: await Promise.all(scratch.runs[0]!.map(summaryOf)),
      b: await Promise.all(scratch.runs[1]!.map(summaryOf)),
    };
  };

  /** An "until decided" experiment of two new configs, A and B, and a way to measure its queued runs. */
  const untilDecided = async (name: string, repeats: number) => {
    const s = await summaries();
    const configs = await Promise.all(
      ['A', 'B'].map((pc) =>
        db.poolConfig.create({
          data: {
            teamId: T.teamId,
            targetId: T.targetId,
            name: `${name} ${pc}`,
            strategy: 'lazy',
            params: {},
          },
        }),
      ),
    );
    const launched = await launchExperiment(db, {
      teamId: T.teamId,
      targetId: T.targetId,
      poolConfigIds: configs.map((c) => c.id),
      scenarioIds: [T.scenarioId],
      repeats,
      name,
      untilDecided: { maxRepeats: 15, metrics: ['p95Ms', 'rps'] },
    });
    const measureQueued = async () => {
      const queued = await db.run.findMany({
        where: { experimentId: launched.experimentId, status: 'queued' },
      });
      for (const r of queued) {
        const pool = r.poolConfigId === configs[0]!.id ? s.a : s.b;
        await db.run.update({
          where: { id: r.id },
          data: {
            status: 'succeeded',
            finishedAt: new Date(),
            summary: toJson.runSummary(pool[r.repeatIndex % pool.length]),
          },
        });
      }
    };
    return { experimentId: launched.experimentId, measureQueued };
  };

  it('grows pair by pair and stops when decided, B worse on p95, within the budget', async () => {
    const launched = await untilDecided('until decided', 4);
    const { measureQueued } = launched;
    const kinds: string[] = [];
    for (let guard = 0; guard < 20; guard++) {
      await measureQueued();
      const next = await continueSequential(db, launched.experimentId);
      kinds.push(next.kind);
      if (next.kind !== 'extended') break;
      expect(next.addRepeats).toBe(1);
    }
    expect(kinds.at(-1)).toBe('stopped');
    const e = parseExperiment(
      await db.experiment.findUniqueOrThrow({ where: { id: launched.experimentId } }),
    );
    const state = e.sequentialState!;
    expect(state.stop).toBe(true);
    expect(e.repeats).toBeLessThanOrEqual(15);
    // no decision before pair 8 (O'Brien–Fleming spends almost nothing early), one pair per look
    expect(e.repeats).toBeGreaterThanOrEqual(8);
    expect(kinds.filter((k) => k === 'extended')).toHaveLength(e.repeats - 4);
    expect(state.metrics.find((m) => m.name === 'p95Ms')!.decision).toBe('worse');
    expect(await db.run.count({ where: { experimentId: e.id } })).toBe(2 * e.repeats);

    // the REST answer is what its OpenAPI document says, the rule's whole last answer included
    // (which look decided and its p, not only the decisions)
    const answer = JSON.parse(
      JSON.stringify(await experimentView(db, T.teamId, e.id, 'http://poolbench.test')),
    ) as { sequential: { maxRepeats: number; state: SequentialState } };
    expectValidAs('Experiment', answer);
    expect(answer.sequential).toMatchObject({ maxRepeats: 15, state: { stop: true } });
    const p95 = answer.sequential.state.metrics.find((m) => m.name === 'p95Ms')!;
    expect(p95).toMatchObject({ decision: 'worse', lookPairs: expect.any(Number) });
    expect(p95.p).toBeLessThan(0.05);
  });

  it('asked by three processes at once (the last two runs ended together), it grows by one pair, once', async () => {
    const { experimentId, measureQueued } = await untilDecided('asked at once', 2);
    await measureQueued();
    const outcomes = await Promise.all([0, 1, 2].map(() => continueSequential(db, experimentId)));
    // the one that grew it; the others find its runs to go, as a later look would
    expect(outcomes.map((o) => o.kind).sort()).toEqual([
      'extended',
      'not-finished',
      'not-finished',
    ]);
    const runs = await db.run.findMany({ where: { experimentId } });
    expect(runs).toHaveLength(6);
    expect(new Set(runs.map((r) => `${r.poolConfigId}/${r.repeatIndex}`)).size).toBe(6);
    expect((await db.experiment.findUniqueOrThrow({ where: { id: experimentId } })).repeats).toBe(
      3,
    );

    // a person's double click on Add repeats: one grows it, the other is told why not
    await measureQueued();
    const clicks = await Promise.allSettled(
      [0, 1].map(() =>
        extendExperiment({ db, queue: null }, { teamId: T.teamId, experimentId, addRepeats: 1 }),
      ),
    );
    expect(clicks.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    expect(clicks.find((c) => c.status === 'rejected')).toMatchObject({
      reason: { path: 'addRepeats', message: expect.stringMatching(/still has runs to go/) },
    });
    expect(await db.run.count({ where: { experimentId } })).toBe(8);
  });

  it('refuses until-decided without exactly two configs and one scenario, or a budget below the repeats', async () => {
    const base = {
      teamId: T.teamId,
      targetId: T.targetId,
      poolConfigIds: [T.poolConfigId],
      scenarioIds: [T.scenarioId],
      repeats: 4,
      name: 'x',
    };
    await expect(
      launchExperiment(db, { ...base, untilDecided: { maxRepeats: 10 } }),
    ).rejects.toMatchObject({ path: 'untilDecided' });
    const other = await db.poolConfig.create({
      data: { teamId: T.teamId, targetId: T.targetId, name: 'other', strategy: 'lazy', params: {} },
    });
    await expect(
      launchExperiment(db, {
        ...base,
        poolConfigIds: [T.poolConfigId, other.id],
        untilDecided: { maxRepeats: 3 },
      }),
    ).rejects.toMatchObject({ path: 'untilDecided.maxRepeats' });
  });
});
