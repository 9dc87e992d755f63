import { NotFoundError, type Db } from '@poolbench/db';
import { enqueueOrDefer, launchCalibration, latestNoiseFloors } from '@poolbench/runs';
import type { Queue } from 'bullmq';

/** Starts an A/A calibration of one pool config on one scenario and enqueues its runs. */
export async function startCalibration(
  deps: { db: Db; queue: Queue },
  input: {
    teamId: string;
    userId: string | null;
    targetId: string;
    poolConfigId: string;
    scenarioId: string;
    runsPerSide?: number;
  },
) {
  const launched = await launchCalibration(deps.db, {
    teamId: input.teamId,
    targetId: input.targetId,
    poolConfigId: input.poolConfigId,
    scenarioId: input.scenarioId,
    runsPerSide: input.runsPerSide,
    createdById: input.userId,
    requireOnlineGenerators: true,
  });
  return enqueueOrDefer(deps.queue, launched);
}

/**
 * A target's noise floors (the latest calibration of each scenario: the one comparisons use) and
 * the calibrations still running. Read in the team only.
 */
export async function listCalibrations(db: Db, teamId: string, targetId: string) {
  const target = await db.target.findFirst({
    where: { id: targetId, teamId },
    select: { id: true },
  });
  if (!target) throw new NotFoundError('target');
  const [scenarioIds, pending] = await Promise.all([
    db.noiseFloor.findMany({
      where: { teamId, targetId },
      distinct: ['scenarioId'],
      select: { scenarioId: true },
    }),
    db.experiment.findMany({
      where: { teamId, targetId, noiseCalibration: true, noiseFloor: null },
      orderBy: { createdAt: 'desc' },
      select: { id: true, name: true, status: true, repeats: true, createdAt: true },
      take: 20,
    }),
  ]);
  const floors = [
    ...(
      await latestNoiseFloors(
        db,
        teamId,
        scenarioIds.map((s) => ({ targetId, scenarioId: s.scenarioId })),
      )
    ).values(),
  ];
  const [scenarios, configs] = await Promise.all([
    db.scenario.findMany({
      where: { teamId, id: { in: floors.map((f) => f.scenarioId) } },
      select: { id: true, name: true },
    }),
    db.poolConfig.findMany({
      where: { teamId, id: { in: floors.map((f) => f.poolConfigId) } },
      select: { id: true, name: true },
    }),
  ]);
  return {
    floors: floors.map((f) => ({
      experimentId: f.experimentId,
      scenarioId: f.scenarioId,
      scenarioName: scenarios.find((s) => s.id === f.scenarioId)?.name ?? 'unknown scenario',
      poolConfigName: configs.find((c) => c.id === f.poolConfigId)?.name ?? 'unknown pool config',
      runsPerSide: f.runsPerSide,
      createdAt: f.createdAt,
      metrics: f.metrics,
    })),
    pending: pending.map((p) => ({
      experimentId: p.id,
      name: p.name,
      status: p.status,
      runsPerSide: p.repeats / 2,
      createdAt: p.createdAt,
    })),
  };
}
