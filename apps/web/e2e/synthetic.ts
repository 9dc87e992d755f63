import { createDb, type Db } from '@poolbench/db';
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
        seed: seed++,
      });
  return e.id;
}
