import { eachOverdue, type OverdueOptions } from '../overdue';
import {
  parseExperiment,
  parseRun,
  Prisma,
  toJson,
  type AdvisorState,
  type Db,
} from '@poolbench/db';
import { isCrashedRunStatus, isMeasuredRunStatus } from '@poolbench/contracts';
import type { RunSummary } from '@poolbench/stats';
import { createRuns } from '../create-runs';
import { RunsRefusedError } from '../runs-refused';
import { lockExperiment, refreshExperimentStatus } from '../experiment-status';
import { advisorRunCells, withConfigs } from './advisor-runs';
import { planAdvisorStep, type AdvisorObservation } from './advisor-plan';

export type AdvisorContinuation =
  | { kind: 'not-advisor' }
  | { kind: 'not-finished' }
  | { kind: 'stopped'; state: AdvisorState }
  | { kind: 'planned'; state: AdvisorState; runIds: string[] };

const ACTIVE = ['queued', 'preparing', 'running'];

/**
 * An advisor experiment whose runs have all ended: the search (`planAdvisorStep`) reads every
 * measured run as an observation of its setting and either answers (stored on the experiment) or
 * plans the next step, whose runs are added queued (the lifecycle sweeper enqueues them). Safe to
 * call twice at once: the second sees the first's runs under the experiment's lock and stops.
 */
export async function continueAdvisor(db: Db, experimentId: string): Promise<AdvisorContinuation> {
  const row = await db.experiment.findUnique({
    where: { id: experimentId },
    select: {
      id: true,
      teamId: true,
      targetId: true,
      loadGenerators: true,
      order: true,
      advisor: true,
      advisorState: true,
      runs: {
        select: {
          id: true,
          status: true,
          poolConfigId: true,
          poolConfigSnapshot: true,
          scenarioId: true,
          scenarioSnapshot: true,
          targetSnapshot: true,
          repeatIndex: true,
          sequence: true,
          summary: true,
        },
        orderBy: { sequence: 'asc' },
      },
    },
  });
  if (!row) return { kind: 'not-advisor' };
  const e = parseExperiment(row);
  const spec = e.advisor;
  if (!spec) return { kind: 'not-advisor' };
  if (e.runs.some((r) => ACTIVE.includes(r.status))) return { kind: 'not-finished' };
  if (e.advisorState && e.advisorState.status !== 'running')
    return { kind: 'stopped', state: e.advisorState };
  const runs = e.runs.map(parseRun);
  const observations = await advisorObservations(db, spec.knob, runs);
  const canceled = runs.some((r) => r.status === 'canceled');
  let step = planAdvisorStep(spec, observations, runs.length);
  if (canceled && step.next.length > 0) step = stopStep(step.state, 'the experiment was canceled');
  const configsOfRuns = new Map<number, string>();
  for (const r of runs) {
    const v = r.poolConfigSnapshot.params?.[spec.knob];
    if (typeof v === 'number' && r.poolConfigId && !configsOfRuns.has(v))
      configsOfRuns.set(v, r.poolConfigId);
  }
  if (step.next.length === 0) {
    const state = withConfigs(step.state, configsOfRuns);
    await db.experiment.update({
      where: { id: e.id },
      data: { advisorState: toJson.advisorState(state) },
    });
    return { kind: 'stopped', state };
  }
  const template = runs.find((r) => r.scenarioId === spec.scenarioId) ?? runs[0];
  if (!template) return { kind: 'not-advisor' };
  try {
    const runIds = await db.$transaction(async (tx) => {
      await lockExperiment(tx, e.id);
      const now = await tx.run.findMany({
        where: { experimentId: e.id },
        select: { status: true },
      });
      // another process planned this step already (or runs are active again)
      if (now.length !== runs.length || now.some((r) => ACTIVE.includes(r.status))) return null;
      // each setting run before keeps its config
      const configs = new Map(configsOfRuns);
      const cells = await advisorRunCells(
        tx,
        {
          teamId: e.teamId,
          experimentId: e.id,
          targetId: e.targetId,
          spec,
          scenario: { id: spec.scenarioId, snapshot: template.scenarioSnapshot },
          targetSnapshot: template.targetSnapshot,
          loadGenerators: e.loadGenerators,
          order: e.order,
          existing: runs,
          configs,
        },
        step.next,
      );
      // a fleet limit reached or scripts turned off between steps: refused, and the search stops
      // saying why (below)
      const { runIds } = await createRuns(tx, cells, {
        kind: 'advisor-step',
        teamId: e.teamId,
        experimentId: e.id,
        mayGrowTo: spec.budgetRuns,
      });
      const state = withConfigs(step.state, configs);
      await tx.experiment.update({
        where: { id: e.id },
        data: {
          advisorState: toJson.advisorState(state),
          repeats: Math.max(...countBySetting([...runs, ...cells]).values()),
        },
      });
      await refreshExperimentStatus(tx, e.id);
      return { ids: runIds, state };
    });
    if (!runIds) return { kind: 'not-finished' };
    return { kind: 'planned', state: runIds.state, runIds: runIds.ids };
  } catch (err) {
    // the team's policy or a fleet limit refusing the step ends the search with what it has,
    // saying why
    if (!(err instanceof RunsRefusedError)) throw err;
    const stopped = stopStep(
      withConfigs(step.state, configsOfRuns),
      `the next step was refused: ${err.message}`,
    );
    await db.experiment.update({
      where: { id: e.id },
      data: { advisorState: toJson.advisorState(stopped.state) },
    });
    return { kind: 'stopped', state: stopped.state };
  }
}

function countBySetting(rows: Array<{ poolConfigId?: string | null }>): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) if (r.poolConfigId) m.set(r.poolConfigId, (m.get(r.poolConfigId) ?? 0) + 1);
  if (m.size === 0) m.set('', 0);
  return m;
}

function stopStep(state: AdvisorState, why: string) {
  return {
    next: [] as number[],
    state: {
      ...state,
      status: 'stopped' as const,
      summary: `Stopped before an answer: ${why}. ${state.summary}`,
      decidedAt: new Date().toISOString(),
    },
  };
}

/**
 * Each measured run as an observation of its setting (read from the config it ran with), with
 * the mean connections in use over its load seconds for Little's law; and each crashed run
 * (failed, timed out, aborted by the system) as an observation without numbers that counts as
 * not meeting the SLO: dropping it would judge the setting on the runs that survived. A canceled
 * run was the user's choice and is left out.
 */
export async function advisorObservations(
  db: Db,
  knob: string,
  runs: Array<{
    id: string;
    status: string;
    poolConfigSnapshot: { params?: Record<string, number> };
    summary: RunSummary | null;
  }>,
): Promise<AdvisorObservation[]> {
  const measured = runs.filter((r) => isMeasuredRunStatus(r.status) && r.summary);
  const inUse = new Map<string, number>();
  if (measured.length > 0) {
    // the target's pool (all instances: instance -1) over the seconds that carried load
    const rows = await db.$queryRaw<Array<{ runId: string; mean: number | null }>>`
      SELECT rs."runId", avg(rs."poolInUse")::float8 AS mean FROM "ResourceSample" rs
       WHERE rs."runId" IN (${Prisma.join(measured.map((r) => r.id))})
         AND rs.instance = -1 AND rs."poolInUse" IS NOT NULL
         AND rs.second IN (SELECT s.second FROM "RunSecond" s
                            WHERE s."runId" = rs."runId" AND s.segment = 'all' AND s.requests > 0)
       GROUP BY rs."runId"`;
    for (const r of rows) if (r.mean !== null) inUse.set(r.runId, r.mean);
  }
  const out: AdvisorObservation[] = [];
  for (const r of runs) {
    const setting = r.poolConfigSnapshot.params?.[knob];
    if (typeof setting !== 'number') continue;
    if (isCrashedRunStatus(r.status)) {
      out.push({
        runId: r.id,
        setting,
        crashed: r.status,
        p99Ms: null,
        meanMs: null,
        poolWaitMsMean: null,
        errorRate: null,
        rps: null,
        droppedIterations: 0,
        iterations: 0,
      });
      continue;
    }
    const s = r.summary;
    if (!isMeasuredRunStatus(r.status) || !s) continue;
    out.push({
      runId: r.id,
      setting,
      p99Ms: s.latency?.p99 ?? null,
      meanMs: s.latency?.mean ?? null,
      poolWaitMsMean: s.resources.poolWaitMsMean,
      errorRate: s.errorRate,
      rps: s.rps,
      droppedIterations: s.droppedIterations,
      iterations: s.iterations,
      poolInUseMean: inUse.get(r.id) ?? null,
      dbConnectionsPeak: s.resources.dbConnectionsPeak,
      rssPeakBytes: s.resources.rssPeakBytes,
    });
  }
  return out;
}

/**
 * Advisor experiments that ended without the search's next step (the process that ended their
 * last run died before asking): asked now, by the lifecycle sweeper.
 */
export async function continueOverdueAdvisors(
  db: Db,
  opts: OverdueOptions = {},
): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "Experiment"
     WHERE "advisor" IS NOT NULL AND "finishedAt" IS NOT NULL
       AND ("advisorState" IS NULL OR "advisorState"->>'status' = 'running')
     ORDER BY random() LIMIT ${opts.limit ?? 20}`;
  return eachOverdue(rows, opts, async (id) => {
    const next = await continueAdvisor(db, id);
    return next.kind !== 'not-finished' && next.kind !== 'not-advisor';
  });
}
