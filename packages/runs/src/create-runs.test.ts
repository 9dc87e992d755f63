import { createDb, parseExperiment, scenarioRowData, toJson, type Db } from '@poolbench/db';
import { seed } from './seed/seed';
import { withTempDatabase } from '@poolbench/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchAdvisor } from './advisor/launch-advisor';
import { extendExperiment } from './extend-experiment';
import { launchExperiment } from './launch-experiment';
import { claimRun, finishRun, markRunning } from './run-transitions';
import { SCRIPTS_OFF_MESSAGE } from './script-policy';
import { continueSequential } from './sequential/continue-sequential';
import { summaryWith } from './testing/summary-with';

/**
 * Every path that makes Run rows goes through createRuns, so a team's script policy and its fleet
 * limits refuse at each of them: a launch (rerun and schedule firings relaunch through it), an
 * advisor's start and its next step, an extension, and an "until decided" experiment's next round.
 */
describe('createRuns: script policy and fleet limits on every path that makes runs', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let A: string;
  let B: string;
  let baseId: string;
  let scriptId: string;
  const SCRIPT_STOP_MS = 90_000;
  beforeAll(async () => {
    const t = await withTempDatabase('runs_create_runs');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 4 });
    ids = await seed(db);
    const pcs = await db.poolConfig.findMany({
      where: { teamId: ids.teamId, targetId: ids.targetId },
      orderBy: { name: 'asc' },
      take: 2,
    });
    [A, B] = [pcs[0]!.id, pcs[1]!.id];
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
    scriptId = (
      await db.scenario.create({
        data: {
          teamId: ids.teamId,
          name: 'own script',
          ...scenarioRowData({
            template: 'k6-script',
            source: 'export default function () {}',
            maxDurationMs: SCRIPT_STOP_MS,
          }),
        },
      })
    ).id;
  });
  afterAll(async () => {
    await db?.$disconnect();
    await dispose?.();
  });

  const setTeam = (data: { scriptScenarios?: boolean; maxQueuedLoadMinutes?: number | null }) =>
    db.team.update({ where: { id: ids.teamId }, data });

  /** Takes a queued run as a worker does: it is no longer queued load. */
  async function start(runId: string) {
    expect(await claimRun(db, runId, 'w1')).toBe(true);
    expect(await markRunning(db, runId, 'w1', { script: 's', environment: {} })).toBe(true);
  }
  /** Ends a started run through the real transition, which asks the experiment's next step. */
  async function end(runId: string, status: 'succeeded' | 'failed', p99 = 30) {
    await finishRun(
      db,
      runId,
      'w1',
      status === 'succeeded'
        ? { status, summary: summaryWith(p99, 1000) }
        : { status, errorCode: 'k6_failed', errorMessage: 'k6 exited 107' },
    );
  }
  async function finish(runId: string, status: 'succeeded' | 'failed', p99 = 30) {
    await start(runId);
    await end(runId, status, p99);
  }
  const queuedRuns = (experimentId: string) =>
    db.run.findMany({ where: { experimentId, status: 'queued' }, orderBy: { sequence: 'asc' } });

  /**
   * With everything allowed: a finished plain experiment of the script (to extend), and an advisor
   * and an "until decided" experiment on it, each with all its runs ended but one, started, whose
   * end (once the team is restricted) asks for the next step. Nothing is left queued.
   */
  async function prepare() {
    const plain = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A],
      scenarioIds: [scriptId],
      repeats: 1,
      name: 'script, to extend',
    });
    // a script's planned load is its stop time, whatever its own scenarios say
    const made = await db.run.findMany({ where: { experimentId: plain.experimentId } });
    expect(made.map((r) => r.plannedLoadMs)).toEqual([SCRIPT_STOP_MS]);
    for (const r of await queuedRuns(plain.experimentId)) await finish(r.id, 'succeeded');

    const advisor = await launchAdvisor(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      scenarioId: scriptId,
      basePoolConfigId: baseId,
      min: 1,
      max: 16,
      objective: { kind: 'max-throughput' },
      budgetRuns: 30,
    });
    // crashed runs are measured again: the search always wants a next step
    const advisorRuns = await queuedRuns(advisor.experimentId);
    for (const r of advisorRuns.slice(0, -1)) await finish(r.id, 'failed');
    await start(advisorRuns.at(-1)!.id);

    const until = await launchExperiment(db, {
      teamId: ids.teamId,
      targetId: ids.targetId,
      poolConfigIds: [A, B],
      scenarioIds: [scriptId],
      repeats: 2,
      name: 'script, until decided',
      untilDecided: { maxRepeats: 15 },
    });
    const untilRuns = await queuedRuns(until.experimentId);
    // the same p99 on both sides, a little noise: two pairs decide nothing
    for (const [i, r] of untilRuns.slice(0, -1).entries())
      await finish(r.id, 'succeeded', 30 + (i % 3));
    await start(untilRuns.at(-1)!.id);
    return {
      plain: plain.experimentId,
      advisor: advisor.experimentId,
      lastAdvisorRun: advisorRuns.at(-1)!.id,
      until: until.experimentId,
      lastUntilRun: untilRuns.at(-1)!.id,
    };
  }

  /** Asks every path for runs; each must refuse as `refusal` says, and nothing may be made. */
  async function everyPathRefuses(
    ready: Awaited<ReturnType<typeof prepare>>,
    refusal: {
      message: string;
      launch: string;
      advisor: string;
      extend: string;
      /** a limit that lifts by itself: an "until decided" experiment waits instead of stopping */
      transient: boolean;
    },
  ) {
    const before = {
      runs: await db.run.count({ where: { teamId: ids.teamId } }),
      experiments: await db.experiment.count({ where: { teamId: ids.teamId } }),
    };
    const refused = (path: string) => ({
      path,
      message: expect.stringContaining(refusal.message),
    });

    // launch (a rerun and a schedule's firing relaunch through it)
    await expect(
      launchExperiment(db, {
        teamId: ids.teamId,
        targetId: ids.targetId,
        poolConfigIds: [A, B],
        scenarioIds: [scriptId],
        repeats: 1,
        name: 'refused launch',
      }),
    ).rejects.toMatchObject(refused(refusal.launch));

    // an advisor's start
    await expect(
      launchAdvisor(db, {
        teamId: ids.teamId,
        targetId: ids.targetId,
        scenarioId: scriptId,
        basePoolConfigId: baseId,
        min: 1,
        max: 16,
        objective: { kind: 'max-throughput' },
        budgetRuns: 30,
      }),
    ).rejects.toMatchObject(refused(refusal.advisor));

    // an extension
    await expect(
      extendExperiment(
        { db, queue: null },
        { teamId: ids.teamId, experimentId: ready.plain, addRepeats: 1 },
      ),
    ).rejects.toMatchObject(refused(refusal.extend));

    const afterAdvisorRuns = await db.run.count({ where: { teamId: ids.teamId } });
    // an advisor's next step: asked when its step's last run ends; the search stops, saying why
    await end(ready.lastAdvisorRun, 'failed');
    const state = parseExperiment(
      await db.experiment.findUniqueOrThrow({
        where: { id: ready.advisor },
        select: { advisorState: true },
      }),
    ).advisorState!;
    expect(state.status).toBe('stopped');
    expect(state.summary).toContain(`the next step was refused: ${refusal.advisor}: `);
    expect(state.summary).toContain(refusal.message);

    // an "until decided" experiment's next round: asked when its last run ends; the rule stops,
    // or waits for a limit that lifts by itself, saying why; asking again answers the same
    await end(ready.lastUntilRun, 'succeeded', 31);
    const seq = parseExperiment(
      await db.experiment.findUniqueOrThrow({
        where: { id: ready.until },
        select: { sequentialState: true },
      }),
    ).sequentialState!;
    const why = refusal.transient ? seq.waitingBecause : seq.stoppedBecause;
    expect(why).toContain(`the next round was refused: ${refusal.extend}: `);
    expect(why).toContain(refusal.message);
    if (refusal.transient) {
      expect(seq.stop).toBe(false);
      expect(seq.stoppedBecause).toBeUndefined();
      expect(await continueSequential(db, ready.until)).toMatchObject({ kind: 'waiting' });
    } else {
      expect(seq.stop).toBe(true);
      expect(
        seq.metrics.some((m) => m.reason.includes('stopped: the next round was refused')),
      ).toBe(true);
      expect(await continueSequential(db, ready.until)).toMatchObject({ kind: 'stopped' });
    }

    expect(await db.run.count({ where: { teamId: ids.teamId } })).toBe(afterAdvisorRuns);
    expect(afterAdvisorRuns).toBe(before.runs);
    expect(await db.experiment.count({ where: { teamId: ids.teamId } })).toBe(before.experiments);
  }

  it("refuses runs of the team's own k6 script at every path once its admins turned scripts off", async () => {
    const ready = await prepare();
    await setTeam({ scriptScenarios: false });
    try {
      await everyPathRefuses(ready, {
        message: SCRIPTS_OFF_MESSAGE,
        launch: 'scenarioIds',
        advisor: 'scenarioId',
        extend: 'addRepeats',
        transient: false,
      });
    } finally {
      await setTeam({ scriptScenarios: true });
    }
  });

  it("holds every path to the team's queued-load limit, counting a script's stop time", async () => {
    const ready = await prepare();
    // nothing of the team's is queued: only the new runs' planned load can go over 0 min
    expect(await db.run.count({ where: { teamId: ids.teamId, status: 'queued' } })).toBe(0);
    await setTeam({ maxQueuedLoadMinutes: 0 });
    try {
      await everyPathRefuses(ready, {
        message: 'the team may have at most 0 min queued',
        launch: 'repeats',
        advisor: 'budgetRuns',
        extend: 'addRepeats',
        transient: true,
      });
    } finally {
      await setTeam({ maxQueuedLoadMinutes: null });
    }
  });
});
