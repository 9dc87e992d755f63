import { createDb, parseExperiment, type Db } from '@poolbench/db';
import { seed } from '../seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import type { Hypothesis } from '@poolbench/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryWith } from '../testing/summary-with';
import { extendExperiment } from '../extend-experiment';
import { launchExperiment } from '../launch-experiment';
import { claimRun, finishRun, markRunning } from '../run-transitions';
import { sequentialStatus } from '../hypotheses/decide-hypotheses';

/**
 * "Until decided" with hypotheses: after each round the sequential rule decides each claim (its
 * band the floor, its own alpha) and the experiment grows a round at a time until every claim is
 * decided or the budget is spent; the claims then carry the rule's decisions.
 */
describe('hypotheses decided sequentially (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let A: string;
  let B: string;
  let C: string;
  let S: string;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_sequential_hypotheses');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 6 });
    ids = await seed(db);
    const pcs = await db.poolConfig.findMany({
      where: { teamId: ids.teamId, name: { startsWith: '004' } },
      orderBy: { name: 'asc' },
      take: 3,
    });
    [A, B, C] = [pcs[0]!.id, pcs[1]!.id, pcs[2]!.id];
    S = (
      await db.scenario.findFirstOrThrow({
        where: { teamId: ids.teamId, name: { startsWith: '004' } },
      })
    ).id;
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
  });

  const cell = (poolConfigId: string) => ({ poolConfigId, scenarioId: S });
  // A is three times slower than B and C at p99; throughput is the same everywhere
  const p99Of = { A: 90, B: 30, C: 30 };
  // throughput of C relative to A and B (1: the same); a test may change it for its experiment
  let rpsOfC = 1;
  /** Runs every queued run of the experiment, in order, until the rule stops adding rounds. */
  const runUntilDone = async (experimentId: string) => {
    for (let round = 0; round < 60; round++) {
      const queued = await db.run.findMany({
        where: { experimentId, status: 'queued' },
        orderBy: { sequence: 'asc' },
        select: { id: true, poolConfigId: true, repeatIndex: true },
      });
      if (queued.length === 0) return;
      for (const r of queued) {
        const base = r.poolConfigId === A ? p99Of.A : p99Of.B;
        const jitter = 1 + ((r.repeatIndex * 7 + (r.poolConfigId === A ? 0 : 3)) % 5) / 100;
        await claimRun(db, r.id, 'w');
        await markRunning(db, r.id, 'w', { script: 's', environment: {} });
        await finishRun(db, r.id, 'w', {
          status: 'succeeded',
          summary: summaryWith(
            base * jitter,
            1000 * (r.poolConfigId === C ? rpsOfC : 1) * (1 + (r.repeatIndex % 3) / 100),
          ),
        });
      }
    }
    throw new Error('the experiment never stopped growing');
  };

  it('decides a clear claim and an equivalence before the budget, with the runs it used', async () => {
    const claims: Hypothesis[] = [
      { base: cell(A), candidate: cell(B), metric: 'p99Ms', expect: 'better', band: 20 },
      { base: cell(B), candidate: cell(C), metric: 'rps', expect: 'equivalent', band: 5 },
      // the opposite of what is true: decided against
      { base: cell(B), candidate: cell(A), metric: 'p99Ms', expect: 'better', band: 20 },
    ];
    const l = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A, B, C],
      scenarioIds: [S],
      repeats: 3,
      name: 'sequential claims',
      hypotheses: claims,
      untilDecided: { maxRepeats: 15 },
    });
    await runUntilDone(l.experimentId);
    const e = await db.experiment.findUniqueOrThrow({
      where: { id: l.experimentId },
      include: { hypotheses: { orderBy: { position: 'asc' } } },
    });
    expect(e.status).toBe('completed');
    // it grew past the 3 it started with and stopped before the budget
    expect(e.repeats).toBeGreaterThan(3);
    expect(e.repeats).toBeLessThan(15);
    expect(e.hypotheses.map((h) => h.status)).toEqual(['holds', 'holds', 'does_not_hold']);
    const [clear] = e.hypotheses;
    expect(clear!.changeUnit).toBe('percent');
    expect(clear!.change).toBeLessThan(-50);
    expect(clear!.p).toBeLessThan(0.05);
    expect(clear!.repeatsNeeded).toBeNull();
    // the runs of both cells up to the look that decided, not the rounds run for later claims
    const state = parseExperiment(e).sequentialState!;
    const look = state.metrics.find((m) => m.hypothesis === 0)!.lookPairs!;
    expect(clear!.runsUsed).toHaveLength(2 * look);
    expect(look).toBeLessThanOrEqual(e.repeats);
    expect(e.sequentialState).toMatchObject({ stop: true });
  });

  it('stops at the budget and says so; a claim past its budget stays unresolved', async () => {
    const l = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A, B],
      scenarioIds: [S],
      repeats: 2,
      name: 'small budget',
      hypotheses: [
        { base: cell(A), candidate: cell(B), metric: 'p99Ms', expect: 'better', band: 20 },
      ],
      untilDecided: { maxRepeats: 3 },
    });
    await runUntilDone(l.experimentId);
    const e = await db.experiment.findUniqueOrThrow({
      where: { id: l.experimentId },
      include: { hypotheses: true },
    });
    expect(e.repeats).toBe(3);
    expect(e.hypotheses[0]!.status).toBe('unresolved');
    expect(e.hypotheses[0]!.reason).toMatch(/budget|3 pairs|at most/i);
  });

  it('refuses more runs after the rule stopped, or past its budget: its alpha is spent', async () => {
    const launch = (maxRepeats: number, name: string) =>
      launchExperiment(db, {
        teamId: ids.teamId,
        targetId: ids.targetId,
        poolConfigIds: [A, B],
        scenarioIds: [S],
        repeats: 2,
        name,
        hypotheses: [
          { base: cell(A), candidate: cell(B), metric: 'p99Ms', expect: 'better', band: 20 },
        ],
        untilDecided: { maxRepeats },
      });
    const extend = (experimentId: string) =>
      extendExperiment({ db, queue: null }, { teamId: ids.teamId, experimentId, addRepeats: 2 });
    // decided before its budget of 15: another look would spend alpha already spent
    const decided = await launch(15, 'decided, then extended');
    await runUntilDone(decided.experimentId);
    const d = await db.experiment.findUniqueOrThrow({ where: { id: decided.experimentId } });
    expect(d.repeats).toBeLessThan(15);
    await expect(extend(decided.experimentId)).rejects.toMatchObject({
      path: 'addRepeats',
      message: expect.stringMatching(/sequential rule stopped at \d+ pairs/),
    });
    // its budget spent: more pairs than planned
    const spent = await launch(3, 'budget spent, then extended');
    await runUntilDone(spent.experimentId);
    await expect(extend(spent.experimentId)).rejects.toMatchObject({ path: 'addRepeats' });
    expect(
      await db.run.count({
        where: {
          experimentId: { in: [decided.experimentId, spent.experimentId] },
          status: 'queued',
        },
      }),
    ).toBe(0);
  });

  it('refutes a claim whose change falls short of its band, though not inside it', async () => {
    // C serves 5 % less than B (runs within 2 %): the change reaches past −5 % (no "no difference")
    // and into the band (no "worse"), but "C serves more than B by 5 %" is ruled out
    rpsOfC = 0.95;
    try {
      const l = await launchExperiment(db, {
        teamId: ids.teamId,
        targetId: ids.targetId,
        poolConfigIds: [B, C],
        scenarioIds: [S],
        repeats: 3,
        name: 'refuted claim',
        hypotheses: [
          { base: cell(B), candidate: cell(C), metric: 'rps', expect: 'better', band: 5 },
        ],
        untilDecided: { maxRepeats: 15 },
      });
      await runUntilDone(l.experimentId);
      const e = await db.experiment.findUniqueOrThrow({
        where: { id: l.experimentId },
        include: { hypotheses: true },
      });
      const state = parseExperiment(e).sequentialState!;
      expect(state.metrics[0]!.decision).toBe('short-of-claim');
      expect(state.metrics[0]!.change!.lower).toBeLessThan(-5);
      expect(e.repeats).toBeLessThan(15);
      expect(e.hypotheses[0]!.status).toBe('does_not_hold');
      expect(e.hypotheses[0]!.reason).toMatch(/^short of the claim: .* not higher by more than/);
    } finally {
      rpsOfC = 1;
    }
  });

  it('refuses metrics beside hypotheses, and allows any cells when there are hypotheses', async () => {
    const base = {
      teamId: ids.teamId,
      targetId: ids.targetId,
      scenarioIds: [S],
      repeats: 2,
      name: 'x',
    };
    await expect(
      launchExperiment(db, {
        ...base,
        poolConfigIds: [A, B, C],
        untilDecided: { maxRepeats: 5 },
      }),
    ).rejects.toMatchObject({ path: 'untilDecided' });
    await expect(
      launchExperiment(db, {
        ...base,
        poolConfigIds: [A, B],
        hypotheses: [
          { base: cell(A), candidate: cell(B), metric: 'p99Ms', expect: 'better', band: 5 },
        ],
        untilDecided: { maxRepeats: 5, metrics: ['p99Ms'] },
      }),
    ).rejects.toMatchObject({ path: 'untilDecided.metrics' });
  });

  it('maps the rule’s decisions to claim statuses', () => {
    expect(sequentialStatus('better', 'better')).toBe('holds');
    expect(sequentialStatus('better', 'worse')).toBe('does_not_hold');
    expect(sequentialStatus('better', 'no-difference-within-floor')).toBe('does_not_hold');
    expect(sequentialStatus('worse', 'worse')).toBe('holds');
    expect(sequentialStatus('equivalent', 'no-difference-within-floor')).toBe('holds');
    expect(sequentialStatus('equivalent', 'better')).toBe('does_not_hold');
    expect(sequentialStatus('better', 'short-of-claim')).toBe('does_not_hold');
    expect(sequentialStatus('worse', 'short-of-claim')).toBe('does_not_hold');
    expect(sequentialStatus('better', 'undecided-budget-reached')).toBe('unresolved');
    expect(sequentialStatus('equivalent', 'continue')).toBe('unresolved');
  });
});
