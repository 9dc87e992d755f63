import type { Db } from '@poolbench/db';
import { createId } from '@poolbench/db';
import type { z } from 'zod';
import type { ExperimentDefinitionSchema } from '~/lib/schemas/experiment';
import { previewCron } from '~/lib/schemas/cron';
import { InvalidInputError, NotFoundError } from '../errors';

/**
 * A schedule clones a saved experiment definition on each firing. The definition is an experiment
 * row without runs; the worker registers BullMQ job schedulers from the Schedule table.
 */
export async function createSchedule(db: Db, input: { teamId: string; userId: string; def: z.output<typeof ExperimentDefinitionSchema>; name: string; cron: string; timezone: string }) {
  const preview = previewCron(input.cron, input.timezone, 1);
  // the request path of the field at fault: an unknown time zone is not the cron's problem
  if (!preview.ok) throw new InvalidInputError(`schedule.${preview.field ?? 'cron'}`, preview.error ?? 'is not a valid cron expression');
  const { def, teamId } = input;
  const target = await db.target.findFirst({ where: { id: def.targetId, teamId, archivedAt: null }, select: { id: true } });
  if (!target) throw new NotFoundError('target');
  const configs = await db.poolConfig.count({ where: { id: { in: def.poolConfigIds }, teamId, targetId: target.id, archivedAt: null } });
  if (configs !== new Set(def.poolConfigIds).size) throw new NotFoundError('pool config');
  const scenarios = await db.scenario.count({ where: { id: { in: def.scenarioIds }, teamId, archivedAt: null } });
  if (scenarios !== new Set(def.scenarioIds).size) throw new NotFoundError('scenario');
  return db.$transaction(async (tx) => {
    const experimentId = createId();
    await tx.experiment.create({
      data: {
        id: experimentId, teamId, targetId: target.id, name: def.name, repeats: def.repeats, order: def.order, loadGenerators: def.loadGenerators, createdById: input.userId, presetId: def.presetId ?? null,
        poolConfigs: { create: def.poolConfigIds.map((poolConfigId, position) => ({ poolConfigId, position })) },
        scenarios: { create: def.scenarioIds.map((scenarioId, position) => ({ scenarioId, position })) },
      },
    });
    return tx.schedule.create({
      data: { teamId, name: input.name, sourceExperimentId: experimentId, cron: input.cron.trim(), timezone: input.timezone, createdById: input.userId },
      select: { id: true },
    });
  });
}

export async function listSchedules(db: Db, teamId: string) {
  const rows = await db.schedule.findMany({
    where: { teamId },
    select: {
      id: true, name: true, cron: true, timezone: true, paused: true, lastFiredAt: true, createdAt: true,
      sourceExperiment: { select: { id: true, repeats: true, target: { select: { id: true, name: true } }, _count: { select: { poolConfigs: true, scenarios: true } } } },
      experiments: { select: { id: true, createdAt: true, status: true }, orderBy: { createdAt: 'desc' }, take: 1 },
    },
    orderBy: { createdAt: 'desc' },
  });
  return rows.map((s) => ({ ...s, preview: previewCron(s.cron, s.timezone, 3), lastExperiment: s.experiments[0] ?? null }));
}

export async function setSchedulePaused(db: Db, teamId: string, id: string, paused: boolean) {
  const r = await db.schedule.updateMany({ where: { id, teamId }, data: { paused } });
  if (r.count === 0) throw new NotFoundError('schedule');
}

/** Deletes the schedule and its run-less definition; experiments it started stay. */
export async function deleteSchedule(db: Db, teamId: string, id: string) {
  const s = await db.schedule.findFirst({ where: { id, teamId }, select: { id: true, sourceExperimentId: true } });
  if (!s) throw new NotFoundError('schedule');
  await db.$transaction(async (tx) => {
    await tx.schedule.delete({ where: { id: s.id } });
    const runs = await tx.run.count({ where: { experimentId: s.sourceExperimentId } });
    if (runs === 0) await tx.experiment.delete({ where: { id: s.sourceExperimentId } });
  });
}
