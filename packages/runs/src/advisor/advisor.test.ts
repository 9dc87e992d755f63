import {
  createDb,
  parseExperiment,
  parsePoolConfig,
  parseRun,
  scenarioRowData,
  toJson,
  type Db,
} from '@poolbench/db';
import { seed } from '../seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { ddcMinServers } from '@poolbench/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryWith } from '../testing/summary-with';
import { claimRun, finishRun, markRunning } from '../run-transitions';
import { extendExperiment } from '../extend-experiment';
import { launchExperiment, relaunchExperiment } from '../launch-experiment';
import { launchAdvisor } from './launch-advisor';
import { continueAdvisor } from './continue-advisor';

/**
 * The advisor's loop on Postgres: every step's runs are claimed, run and finished through the real
 * transitions with summaries from a D/D/c model of the lab target (λ = 50 req/s, S = 50 ms: a pool
 * of c > λS = 2.5 holds p99 near S, a smaller one queues without bound), and the search must land
 * on queueing theory's answer within its budget.
 */
describe('advisor', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let baseId: string;
  let rateScenarioId: string;
  let closedScenarioId: string;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_advisor');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 3 });
    ids = await seed(db);
    baseId = (
      await db.poolConfig.create({
        data: {
          teamId: ids.teamId,
          targetId: ids.targetId,
          name: 'advisor base',
          strategy: 'elastic',
          params: toJson.poolParams({ maxConns: 8, minConns: 4 }),
        },
      })
    ).id;
    rateScenarioId = (
      await db.scenario.create({
        data: {
          teamId: ids.teamId,
          name: 'rate 50',
          ...scenarioRowData({
            template: 'constant-arrival-rate',
            params: { ratePerSec: 50, durationMs: 5000, preAllocatedVUs: 10 },
            requests: [{ path: '/work', query: { ms: 50 } }],
          }),
        },
      })
    ).id;
    closedScenarioId = (
      await db.scenario.findFirstOrThrow({
        where: { teamId: ids.teamId, templateId: { not: 'constant-arrival-rate' } },
      })
    ).id;
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
  });

  /** runs every queued run of the experiment to its end with the model's numbers, or crashes it */
  async function runStep(
    experimentId: string,
    model: (setting: number, i: number) => number,
    crash: (setting: number, i: number) => boolean = () => false,
  ) {
    const runs = await db.run.findMany({
      where: { experimentId, status: 'queued' },
      orderBy: { sequence: 'asc' },
    });
    for (const [i, r] of runs.entries()) {
      const setting = parseRun(r).poolConfigSnapshot.params?.maxConns ?? 0;
      expect(await claimRun(db, r.id, 'w1')).toBe(true);
      expect(await markRunning(db, r.id, 'w1', { script: 's', environment: {} })).toBe(true);
      await finishRun(
        db,
        r.id,
        'w1',
        crash(setting, i)
          ? { status: 'failed', errorCode: 'k6_failed', errorMessage: 'k6 exited 107' }
          : { status: 'succeeded', summary: summaryWith(model(setting, i), 50) },
      );
    }
    return runs.length;
  }

  const ddc = (setting: number, i: number) =>
    setting > 2.5 ? 55 + (i % 3) : 800 + 100 * (3 - Math.min(setting, 3));

  it('finds the smallest pool that meets the SLO, within its budget, and says so', async () => {
    const launched = await launchAdvisor(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      scenarioId: rateScenarioId,
      basePoolConfigId: baseId,
      min: 1,
      max: 16,
      objective: { kind: 'slo', p99Ms: 100, errorRate: 0.001 },
      budgetRuns: 30,
    });
    let total = 0;
    for (let step = 0; step < 20; step++) {
      total += await runStep(launched.experimentId, ddc);
      const e = parseExperiment(
        await db.experiment.findUniqueOrThrow({
          where: { id: launched.experimentId },
          select: { advisorState: true },
        }),
      );
      if (e.advisorState?.status !== 'running') break;
    }
    const e = parseExperiment(
      await db.experiment.findUniqueOrThrow({
        where: { id: launched.experimentId },
        include: { poolConfigs: { include: { poolConfig: true } } },
      }),
    );
    const s = e.advisorState!;
    expect(s.status).toBe('decided');
    expect(s.recommended).toBe(ddcMinServers(50, 50).servers);
    expect(total).toBeLessThanOrEqual(30);
    expect(s.runsUsed).toBe(total);
    expect(s.summary).toMatch(/maxConns 3/);
    // every setting's config is the base with the knob set, and stays out of the team's list
    for (const { poolConfig } of e.poolConfigs) {
      expect(poolConfig.archivedAt).not.toBeNull();
      const p = parsePoolConfig(poolConfig).params;
      expect(p.minConns).toBeLessThanOrEqual(p.maxConns!);
      expect(poolConfig.strategy).toBe('elastic');
    }
    const settings = s.settings.filter((x) => x.runs > 0);
    expect(settings.find((x) => x.setting === 3)?.verdict).toBe('meets');
    expect(settings.find((x) => x.setting === 2)?.verdict).toBe('fails');
    expect(settings.every((x) => x.poolConfigId.length > 0)).toBe(true);
    // asking again changes nothing
    expect((await continueAdvisor(db, launched.experimentId)).kind).toBe('stopped');
    // an advisor plans its own runs; starting it again starts a new search
    await expect(
      extendExperiment(
        { db, queue: null },
        { teamId: ids.teamId, experimentId: launched.experimentId, addRepeats: 1 },
      ),
    ).rejects.toThrow(/advisor plans its own runs/);
    const again = await relaunchExperiment(db, launched.experimentId, { teamId: ids.teamId });
    const copy = parseExperiment(
      await db.experiment.findUniqueOrThrow({
        where: { id: again.experimentId },
        select: { advisor: true, advisorState: true },
      }),
    );
    expect(copy.advisor?.max).toBe(16);
    expect(copy.advisorState?.status).toBe('running');
  });

  it('counts a crashed run as one that did not meet the SLO: a setting is not judged on its survivors', async () => {
    const launched = await launchAdvisor(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      scenarioId: rateScenarioId,
      basePoolConfigId: baseId,
      min: 1,
      max: 16,
      objective: { kind: 'slo', p99Ms: 100, errorRate: 0.001 },
      budgetRuns: 30,
    });
    // every run that measures meets the SLO from 3 up; at 3, every other run crashes
    let at3 = 0;
    const crashAt3 = (setting: number) => setting === 3 && at3++ % 2 === 0;
    for (let step = 0; step < 20; step++) {
      if ((await runStep(launched.experimentId, ddc, crashAt3)) === 0) break;
    }
    const s = parseExperiment(
      await db.experiment.findUniqueOrThrow({
        where: { id: launched.experimentId },
        select: { advisorState: true },
      }),
    ).advisorState!;
    const three = s.settings.find((x) => x.setting === 3)!;
    const crashed = await db.run.count({
      where: { experimentId: launched.experimentId, status: 'failed' },
    });
    expect(crashed).toBeGreaterThan(0);
    // the crashed runs are among its runs, as runs that did not meet it, named
    expect(three.runs - three.meets).toBeGreaterThanOrEqual(crashed);
    expect(three.reasons).toContain('the run failed');
    expect(three.verdict).not.toBe('meets');
    expect(s.recommended === 3).toBe(false);
  });

  it('says when the budget ends before a decision, naming what is in doubt', async () => {
    const launched = await launchAdvisor(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      scenarioId: rateScenarioId,
      basePoolConfigId: baseId,
      min: 1,
      max: 16,
      objective: { kind: 'slo', p99Ms: 100, errorRate: 0.001 },
      budgetRuns: 6,
    });
    // noisy around the boundary: a third of the runs at every setting miss the SLO
    const noisy = (setting: number, i: number) => (i % 3 === 0 ? 150 : setting > 2 ? 60 : 900);
    for (let step = 0; step < 10; step++) {
      if ((await runStep(launched.experimentId, noisy)) === 0) break;
    }
    const s = parseExperiment(
      await db.experiment.findUniqueOrThrow({
        where: { id: launched.experimentId },
        select: { advisorState: true },
      }),
    ).advisorState!;
    expect(s.runsUsed).toBeLessThanOrEqual(6);
    expect(s.status).toBe('budget-exhausted');
    expect(s.recommended).toBeNull();
    expect(s.inDoubt?.length).toBeGreaterThan(0);
    expect(s.summary).toMatch(/budget of 6 runs ended before a decision/);
  });

  it('ends the search with what it has, saying why, when a limit refuses the next step', async () => {
    const launched = await launchAdvisor(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      scenarioId: rateScenarioId,
      basePoolConfigId: baseId,
      min: 1,
      max: 16,
      objective: { kind: 'slo', p99Ms: 100, errorRate: 0.001 },
      budgetRuns: 30,
    });
    // an admin lowers the team's runs-per-experiment limit while the first step runs
    await db.team.update({ where: { id: ids.teamId }, data: { maxRunsPerExperiment: 7 } });
    try {
      await runStep(launched.experimentId, ddc);
    } finally {
      await db.team.update({ where: { id: ids.teamId }, data: { maxRunsPerExperiment: null } });
    }
    const s = parseExperiment(
      await db.experiment.findUniqueOrThrow({
        where: { id: launched.experimentId },
        select: { advisorState: true },
      }),
    ).advisorState!;
    expect(s.status).toBe('stopped');
    expect(s.summary).toMatch(/Stopped before an answer: the next step was refused: .*limit is 7/);
    expect(s.settings.filter((x) => x.runs > 0).every((x) => x.poolConfigId.length > 0)).toBe(true);
    expect(await db.run.count({ where: { experimentId: launched.experimentId } })).toBe(6);
  });

  it("creates no script run once the team's admins turned scripts off: start, next step, extend", async () => {
    const script = await db.scenario.create({
      data: {
        teamId: ids.teamId,
        name: 'own script for the advisor',
        ...scenarioRowData({
          template: 'k6-script',
          source: 'export default function () {}',
          maxDurationMs: 5000,
        }),
      },
    });
    const input = {
      teamId: ids.teamId,
      targetId: ids.targetId,
      scenarioId: script.id,
      basePoolConfigId: baseId,
      min: 1,
      max: 16,
      objective: { kind: 'max-throughput' as const },
      budgetRuns: 30,
    };
    const launched = await launchAdvisor(db, input);
    const plain = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [baseId],
      scenarioIds: [script.id],
      repeats: 1,
      name: 'script experiment',
    });
    await runStep(plain.experimentId, () => 20);
    const off = (scriptScenarios: boolean) =>
      db.team.update({ where: { id: ids.teamId }, data: { scriptScenarios } });
    await off(false);
    try {
      const runsBefore = await db.run.count({ where: { teamId: ids.teamId } });
      // a new advisor on the script: refused, naming the policy
      await expect(launchAdvisor(db, input)).rejects.toMatchObject({
        path: 'scenarioId',
        message: expect.stringContaining('turned off k6 scripts'),
      });
      // extending an experiment of the script: refused too
      await expect(
        extendExperiment(
          { db, queue: null },
          { teamId: ids.teamId, experimentId: plain.experimentId, addRepeats: 1 },
        ),
      ).rejects.toMatchObject({
        path: 'addRepeats',
        message: expect.stringContaining('turned off k6 scripts'),
      });
      expect(await db.run.count({ where: { teamId: ids.teamId } })).toBe(runsBefore);
      // its first step's runs all fail (k6 refused the script): the search would plan them again;
      // that next step is refused and the search stops, saying why
      const firstRuns = await db.run.findMany({
        where: { experimentId: launched.experimentId, status: 'queued' },
      });
      for (const r of firstRuns) {
        expect(await claimRun(db, r.id, 'w1')).toBe(true);
        await finishRun(db, r.id, 'w1', {
          status: 'failed',
          errorCode: 'scripts_disabled',
          errorMessage: 'off',
        });
      }
      const firstStep = firstRuns.length;
      const s = parseExperiment(
        await db.experiment.findUniqueOrThrow({
          where: { id: launched.experimentId },
          select: { advisorState: true },
        }),
      ).advisorState!;
      expect(s.status).toBe('stopped');
      expect(s.summary).toMatch(/the next step was refused: .*turned off k6 scripts/);
      expect(await db.run.count({ where: { experimentId: launched.experimentId } })).toBe(
        firstStep,
      );
    } finally {
      await off(true);
    }
  });

  it('refuses by field what it cannot search', async () => {
    const base = {
      teamId: ids.teamId,
      targetId: ids.targetId,
      scenarioId: rateScenarioId,
      basePoolConfigId: baseId,
      min: 1,
      max: 16,
      objective: { kind: 'slo' as const, p99Ms: 100, errorRate: 0.001 },
      budgetRuns: 24,
    };
    await expect(launchAdvisor(db, { ...base, min: 8, max: 4 })).rejects.toMatchObject({
      path: 'max',
    });
    await expect(launchAdvisor(db, { ...base, min: 0 })).rejects.toMatchObject({ path: 'min' });
    await expect(launchAdvisor(db, { ...base, max: 5000 })).rejects.toMatchObject({ path: 'max' });
    await expect(launchAdvisor(db, { ...base, budgetRuns: 100_000 })).rejects.toMatchObject({
      path: 'budgetRuns',
    });
    await expect(
      launchAdvisor(db, { ...base, objective: { kind: 'slo', p99Ms: -1, errorRate: 0 } }),
    ).rejects.toMatchObject({ path: 'objective.p99Ms' });
    // an SLO holds at a rate: a closed-model scenario is refused, naming the field
    await expect(
      launchAdvisor(db, { ...base, scenarioId: closedScenarioId }),
    ).rejects.toMatchObject({ path: 'scenarioId' });
    // another team's ids are not found, and reveal nothing
    const other = await db.team.create({ data: { name: 'other', slug: 'other-advisor' } });
    await expect(launchAdvisor(db, { ...base, teamId: other.id })).rejects.toThrow(/not found/);
    // the budget is held to the team's fleet limit on runs per experiment
    await db.team.update({ where: { id: ids.teamId }, data: { maxRunsPerExperiment: 10 } });
    await expect(launchAdvisor(db, base)).rejects.toMatchObject({ path: 'budgetRuns' });
    await db.team.update({ where: { id: ids.teamId }, data: { maxRunsPerExperiment: null } });
  });
});
