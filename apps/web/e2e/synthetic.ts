import { createDb, parseRun, type Db } from '@poolbench/db';
import { insertSyntheticRun } from '../src/server/services/compare/testing/synthetic-runs';

/**
 * Finished experiments written straight into Postgres (runs as the worker stores them: per-second
 * rows with HDR histograms, resource samples, summary), for specs that only look at finished
 * results. Specs about running experiments go through the real worker instead.
 */
let db: Db | null = null;
export function e2eDb(): Db {
  db ??= createDb({
    url: process.env.DATABASE_URL ?? 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
    max: 2,
  });
  return db;
}
export async function closeE2eDb() {
  await db?.$disconnect();
  db = null;
}

/**
 * Opens 127.0.0.0/8 to every team's allowlist, as the installation's admin does in Settings →
 * Installation: the specs' stub servers listen on loopback. Already open: nothing changes.
 */
export async function openLoopback(): Promise<void> {
  await e2eDb().installationRange.upsert({
    where: { cidr: '127.0.0.0/8' },
    create: { cidr: '127.0.0.0/8', note: 'browser tests: stub servers', createdById: 'e2e' },
    update: {},
  });
}

/** The team of a user who signed up (the team the sign-up made). */
export async function teamOf(email: string): Promise<string> {
  const m = await e2eDb().membership.findFirstOrThrow({
    where: { user: { email } },
    orderBy: { createdAt: 'asc' },
  });
  return m.teamId;
}

export interface FinishedExperimentSpec {
  teamId: string;
  targetId: string;
  name: string;
  /** pool configs and scenarios created through the API, with the names runs snapshot */
  poolConfigs: { id: string; name: string }[];
  scenario: { id: string; name: string };
  repeats: number;
  seconds?: number;
  /** per pool config (same order): median latency in ms and requests per second */
  shape?: (poolConfigIndex: number) => { latencyMs: number; rps: number; errorRate?: number };
  seed?: number;
  /** the machine and build the runs recorded (default: a synthetic machine of their own) */
  environment?: Record<string, unknown>;
}

/** A completed experiment whose runs all succeeded, interleaved like the worker runs them. */
export async function finishedExperiment(spec: FinishedExperimentSpec): Promise<string> {
  const d = e2eDb();
  const e = await d.experiment.create({
    data: {
      teamId: spec.teamId,
      targetId: spec.targetId,
      name: spec.name,
      repeats: spec.repeats,
      order: 'interleaved',
      status: 'completed',
      finishedAt: new Date(),
      poolConfigs: {
        create: spec.poolConfigs.map((p, i) => ({ poolConfigId: p.id, position: i })),
      },
      scenarios: { create: [{ scenarioId: spec.scenario.id, position: 0 }] },
    },
  });
  let seed = spec.seed ?? 1;
  for (let r = 0; r < spec.repeats; r++)
    for (const [i, pc] of spec.poolConfigs.entries())
      await insertSyntheticRun(d, {
        teamId: spec.teamId,
        experimentId: e.id,
        targetId: spec.targetId,
        poolConfigId: pc.id,
        scenarioId: spec.scenario.id,
        poolConfigName: pc.name,
        scenarioName: spec.scenario.name,
        repeatIndex: r,
        seconds: spec.seconds ?? 12,
        ...(spec.shape?.(i) ?? { latencyMs: 2, rps: 200 }),
        ...(spec.environment ? { environment: spec.environment } : {}),
        seed: seed++,
      });
  return e.id;
}

/**
 * Two finished repeats of one experiment on a new managed lab target of the signed-in user's team
 * (`call`: a tRPC caller as that user): a target, a prewarm pool config, a steady scenario and
 * their stored seconds. Returns the runs' ids in repeat order.
 */
export async function twoFinishedRuns(
  call: (path: string, input: unknown) => Promise<{ id: string }>,
  email: string,
  name: string,
  seconds: number,
): Promise<[string, string]> {
  const target = await call('target.create', {
    kind: 'managed',
    name: 'Lab',
    requestDefaults: { method: 'GET', path: '/work', query: { ms: '2' } },
  });
  const pc = await call('poolConfig.create', {
    targetId: target.id,
    name: 'prewarm',
    config: { strategy: 'prewarm', params: {} },
  });
  const scenario = await call('scenario.create', {
    name: 'steady',
    scenario: {
      template: 'sustained',
      params: { vus: 2, durationMs: seconds * 1000 },
      requests: [{ path: '/work', query: { ms: 2 } }],
    },
  });
  const experimentId = await finishedExperiment({
    teamId: await teamOf(email),
    targetId: target.id,
    name,
    poolConfigs: [{ id: pc.id, name: 'prewarm' }],
    scenario: { id: scenario.id, name: 'steady' },
    repeats: 2,
    seconds,
  });
  const [run, run2] = await e2eDb().run.findMany({
    where: { experimentId },
    select: { id: true },
    orderBy: { repeatIndex: 'asc' },
  });
  if (!run || !run2) throw new Error('the fixture made no runs');
  return [run.id, run2.id];
}

/** The environment (machine, build) a run of this experiment recorded, as the worker stored it. */
export async function runEnvironmentOf(experimentId: string): Promise<Record<string, unknown>> {
  const runs = await e2eDb().run.findMany({
    where: { experimentId },
    select: { environment: true },
  });
  const env = runs.map((r) => parseRun(r).environment).find((e) => e);
  if (!env) throw new Error(`no run of ${experimentId} recorded its environment`);
  return { ...env };
}
