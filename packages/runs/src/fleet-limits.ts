import { RunsRefusedError } from './runs-refused';
import { scenarioFromColumns, type Db, type Prisma } from '@poolbench/db';
import { scenarioPlannedMs } from '@poolbench/scenarios';

/**
 * What one team may ask of the shared load fleet (docs/security.md, "A fair fleet"). A team's
 * admin may set its own values (`team.setLimits`); null there means these defaults.
 */
export const FLEET_LIMIT_DEFAULTS = {
  /** runs one experiment (or one extension's result) may have: 8 configs x 8 scenarios x 7 repeats */
  maxRunsPerExperiment: 500,
  /** planned load time the team may have queued at once, in worker-minutes (8 hours) */
  maxQueuedLoadMinutes: 480,
} as const;

/**
 * Planned load the whole installation may have queued, in worker-minutes (48 hours by default;
 * `POOLBENCH_QUEUED_LOAD_MINUTES`), shared fairly: once it is full, a team may still add load up to
 * its fair share (the limit divided by the teams with queued load, itself included). So many
 * accounts claim one installation's worth together, not one team limit each.
 */
export const INSTALLATION_QUEUED_LOAD_MINUTES_DEFAULT = 48 * 60;

export function installationQueuedLoadMinutes(env = process.env): number {
  const v = Number(env.POOLBENCH_QUEUED_LOAD_MINUTES);
  return Number.isInteger(v) && v > 0 ? v : INSTALLATION_QUEUED_LOAD_MINUTES_DEFAULT;
}

/** A worker counts as online when its heartbeat is this recent and it reaches the queue. */
export const WORKER_ONLINE_WITHIN_MS = 30_000;

type Tx = Prisma.TransactionClient | Db;

/** The scenario's planned load time (its length; the cap for fixed-requests), 0 when unknown. */
export function plannedLoadMs(scenario: { templateId?: string; params?: unknown }): number {
  return Math.round(scenarioPlannedMs(scenarioFromColumns(scenario)) ?? 0);
}

/** Workers with a fresh heartbeat that see their queue: the ones that can take part in a run. */
export async function onlineWorkers(db: Tx, now = Date.now()): Promise<number> {
  return db.worker.count({
    where: {
      lastSeenAt: { gte: new Date(now - WORKER_ONLINE_WITHIN_MS) },
      stoppedAt: null,
      queueConnected: true,
    },
  });
}

/** The team's queued runs and their planned load (scenario length x load generators), in ms. */
export async function queuedLoad(db: Tx, teamId: string): Promise<{ runs: number; ms: number }> {
  const rows = await db.$queryRaw<{ runs: bigint; ms: bigint | null }[]>`
    SELECT count(*) AS runs, sum("plannedLoadMs"::bigint * "loadGenerators") AS ms
    FROM "Run" WHERE "teamId" = ${teamId} AND status = 'queued'`;
  return { runs: Number(rows[0]?.runs ?? 0), ms: Number(rows[0]?.ms ?? 0) };
}

export async function teamFleetLimits(db: Tx, teamId: string) {
  const team = await db.team.findUnique({
    where: { id: teamId },
    select: { maxRunsPerExperiment: true, maxQueuedLoadMinutes: true },
  });
  return {
    maxRunsPerExperiment: team?.maxRunsPerExperiment ?? FLEET_LIMIT_DEFAULTS.maxRunsPerExperiment,
    maxQueuedLoadMinutes: team?.maxQueuedLoadMinutes ?? FLEET_LIMIT_DEFAULTS.maxQueuedLoadMinutes,
  };
}

const minutes = (ms: number) => `${Math.ceil(ms / 60_000)} min`;

/**
 * Refuses, by field and with the numbers, a launch or extension that would take more of the fleet
 * than the team may: more runs in one experiment than its limit, more planned load queued than its
 * limit, or (when asked) more load generators per run than workers online: a run split across
 * more generators than there are workers holds a worker while it waits for the others, then fails. Runs in the caller's transaction
 * after a per-team advisory lock, so two launches at once cannot both slip under the limit.
 */
export async function checkFleetLimits(
  tx: Prisma.TransactionClient,
  input: {
    teamId: string;
    /** runs the experiment will have in total after this launch or extension */
    experimentRuns: number;
    /** the new runs' planned load, already multiplied by their load generators */
    newLoadMs: number;
    loadGenerators: number;
    /** refuse more load generators than workers online (people and CI launching; not schedules) */
    requireOnlineGenerators: boolean;
    /** the field a refusal names: `repeats` for a launch, `addRepeats` for an extension */
    field: string;
  },
): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`fleet:${input.teamId}`}))`;
  const limits = await teamFleetLimits(tx, input.teamId);
  if (input.experimentRuns > limits.maxRunsPerExperiment)
    throw new RunsRefusedError(
      input.field,
      `this would make ${input.experimentRuns} runs in one experiment; this team's limit is ${limits.maxRunsPerExperiment} (fewer configs, scenarios or repeats, or ask an admin to raise it)`,
      false,
    );
  if (input.requireOnlineGenerators && input.loadGenerators > 1) {
    const online = await onlineWorkers(tx);
    if (input.loadGenerators > online)
      throw new RunsRefusedError(
        'loadGenerators',
        `${input.loadGenerators} load generators need ${input.loadGenerators} workers online; ${online} ${online === 1 ? 'is' : 'are'} online (start more workers or use at most ${Math.max(1, online)})`,
        true,
      );
  }
  const { ms: queuedMs } = await queuedLoad(tx, input.teamId);
  const limitMs = limits.maxQueuedLoadMinutes * 60_000;
  if (queuedMs + input.newLoadMs > limitMs)
    throw new RunsRefusedError(
      input.field,
      `this would queue ${minutes(input.newLoadMs)} of load on top of the team's ${minutes(queuedMs)} already queued; the team may have at most ${limits.maxQueuedLoadMinutes} min queued (wait, cancel an experiment, or ask an admin to raise it)`,
      true,
    );
  // every team's launches take this lock after their own, so the order is always the same
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('fleet:installation'))`;
  const byTeam = await tx.$queryRaw<{ teamId: string; ms: bigint | null }[]>`
    SELECT "teamId", sum("plannedLoadMs"::bigint * "loadGenerators") AS ms
    FROM "Run" WHERE status = 'queued' GROUP BY "teamId"`;
  const totalMs = byTeam.reduce((a, r) => a + Number(r.ms ?? 0), 0);
  const installationMinutes = installationQueuedLoadMinutes();
  const installationMs = installationMinutes * 60_000;
  const teams = new Set([...byTeam.filter((r) => Number(r.ms ?? 0) > 0).map((r) => r.teamId)]);
  teams.add(input.teamId);
  const shareMs = installationMs / teams.size;
  if (totalMs + input.newLoadMs > installationMs && queuedMs + input.newLoadMs > shareMs)
    throw new RunsRefusedError(
      input.field,
      `the installation's queue is full (${minutes(totalMs)} of its ${installationMinutes} min queued by ${teams.size} ${teams.size === 1 ? 'team' : 'teams'}); this team may add load up to its fair share of ${minutes(shareMs)} and has ${minutes(queuedMs)} queued (wait for runs to finish, or ask an installation admin to raise POOLBENCH_QUEUED_LOAD_MINUTES)`,
      true,
    );
}
