import type { Db } from '@poolbench/db';
import { createId, sealSecret } from '@poolbench/db';
import { hypothesisRows, launchFiring, liveTarget } from '@poolbench/runs';
import type { Queue } from 'bullmq';
import type { ScheduleNotifySchema } from '~/lib/schemas/schedule-notify';
import type { z } from 'zod';
import type { ExperimentDefinitionSchema } from '~/lib/schemas/experiment';
import { previewCron } from '~/lib/schemas/cron';
import { InvalidInputError, NotFoundError } from '../errors';
import { checkWebhookUrl } from './check-webhook-url';

/**
 * A schedule clones a saved experiment definition on each firing. The definition is an Experiment
 * row of kind `schedule_definition` (it never runs, and no list shows it); the worker registers
 * BullMQ job schedulers from the Schedule table.
 */
export async function createSchedule(
  db: Db,
  input: {
    teamId: string;
    userId: string;
    def: z.output<typeof ExperimentDefinitionSchema>;
    name: string;
    cron: string;
    timezone: string;
  },
) {
  const preview = previewCron(input.cron, input.timezone, 1);
  // the request path of the field at fault: an unknown time zone is not the cron's problem
  if (!preview.ok)
    throw new InvalidInputError(
      `schedule.${preview.field ?? 'cron'}`,
      preview.error ?? 'is not a valid cron expression',
    );
  const { def, teamId } = input;
  const target = await liveTarget(db, teamId, def.targetId, { id: true });
  const configs = await db.poolConfig.findMany({
    where: { id: { in: def.poolConfigIds }, teamId, targetId: target.id, archivedAt: null },
    select: { id: true, name: true },
  });
  if (configs.length !== new Set(def.poolConfigIds).size) throw new NotFoundError('pool config');
  const scenarios = await db.scenario.findMany({
    where: { id: { in: def.scenarioIds }, teamId, archivedAt: null },
    select: { id: true, name: true },
  });
  if (scenarios.length !== new Set(def.scenarioIds).size) throw new NotFoundError('scenario');
  // the definition's claims: every firing copies them (relaunchExperiment), each copy decided on its own runs
  const claims = hypothesisRows('', def.hypotheses ?? [], configs, scenarios);
  return db.$transaction(async (tx) => {
    const experimentId = createId();
    await tx.experiment.create({
      data: {
        id: experimentId,
        teamId,
        targetId: target.id,
        name: def.name,
        repeats: def.repeats,
        order: def.order,
        kind: 'schedule_definition',
        loadGenerators: def.loadGenerators,
        createdById: input.userId,
        presetId: def.presetId ?? null,
        poolConfigs: {
          create: def.poolConfigIds.map((poolConfigId, position) => ({ poolConfigId, position })),
        },
        scenarios: {
          create: def.scenarioIds.map((scenarioId, position) => ({ scenarioId, position })),
        },
      },
    });
    if (claims.length)
      await tx.hypothesis.createMany({ data: claims.map((h) => ({ ...h, experimentId })) });
    return tx.schedule.create({
      data: {
        teamId,
        name: input.name,
        sourceExperimentId: experimentId,
        cron: input.cron.trim(),
        timezone: input.timezone,
        createdById: input.userId,
      },
      select: { id: true },
    });
  });
}

export async function listSchedules(db: Db, teamId: string) {
  const rows = await db.schedule.findMany({
    where: { teamId },
    select: {
      id: true,
      name: true,
      cron: true,
      timezone: true,
      paused: true,
      lastFiredAt: true,
      createdAt: true,
      baselineName: true,
      notifyOn: true,
      settleUpToRepeats: true,
      webhookHost: true,
      webhookFormat: true,
      sourceExperiment: {
        select: {
          id: true,
          repeats: true,
          target: { select: { id: true, name: true } },
          _count: { select: { poolConfigs: true, scenarios: true } },
        },
      },
      experiments: {
        select: { id: true, createdAt: true, status: true },
        orderBy: { createdAt: 'desc' },
        take: 1,
      },
      notifications: {
        select: {
          experimentId: true,
          outcome: true,
          status: true,
          attempts: true,
          lastStatusCode: true,
          lastError: true,
          deliveredAt: true,
          createdAt: true,
        },
        orderBy: { createdAt: 'desc' },
        take: 1,
      },
    },
    orderBy: { createdAt: 'desc' },
  });
  // the URL is a credential (Slack's is): only its host leaves the server
  return rows.map(({ webhookHost, webhookFormat, notifications, ...s }) => ({
    ...s,
    webhook: webhookHost ? { host: webhookHost, format: webhookFormat } : null,
    lastNotification: notifications[0] ?? null,
    preview: previewCron(s.cron, s.timezone, 3),
    lastExperiment: s.experiments[0] ?? null,
  }));
}

/**
 * Edits a schedule: its name, cron, time zone and the repeats of the experiments it starts. The
 * cron is checked in words like at creation (the field at fault named); the workers pick up a new
 * cron or time zone at their next schedule sync, and experiments already started keep theirs.
 */
export async function updateSchedule(
  db: Db,
  teamId: string,
  input: { id: string; name: string; cron: string; timezone: string; repeats: number },
) {
  const preview = previewCron(input.cron, input.timezone, 1);
  if (!preview.ok)
    throw new InvalidInputError(
      preview.field ?? 'cron',
      preview.error ?? 'is not a valid cron expression',
    );
  const s = await db.schedule.findFirst({
    where: { id: input.id, teamId },
    select: { id: true, sourceExperimentId: true },
  });
  if (!s) throw new NotFoundError('schedule');
  await db.$transaction(async (tx) => {
    await tx.schedule.update({
      where: { id: s.id },
      data: { name: input.name, cron: input.cron.trim(), timezone: input.timezone },
    });
    await tx.experiment.update({
      where: { id: s.sourceExperimentId },
      data: { repeats: input.repeats },
    });
  });
}

export async function setSchedulePaused(db: Db, teamId: string, id: string, paused: boolean) {
  const r = await db.schedule.updateMany({ where: { id, teamId }, data: { paused } });
  if (r.count === 0) throw new NotFoundError('schedule');
}

/** Deletes the schedule and its run-less definition; experiments it started stay. */
export async function deleteSchedule(db: Db, teamId: string, id: string) {
  const s = await db.schedule.findFirst({
    where: { id, teamId },
    select: { id: true, sourceExperimentId: true },
  });
  if (!s) throw new NotFoundError('schedule');
  await db.$transaction(async (tx) => {
    await tx.schedule.delete({ where: { id: s.id } });
    const runs = await tx.run.count({ where: { experimentId: s.sourceExperimentId } });
    if (runs === 0) await tx.experiment.delete({ where: { id: s.sourceExperimentId } });
  });
}

/**
 * Sets what a schedule compares itself with and where it tells about it. The webhook URL and the
 * HMAC secret are sealed with the server key and never read back to the browser (only the host
 * is shown); an empty URL or secret keeps the stored one. A webhook needs both.
 */
export async function setScheduleNotify(
  db: Db,
  secretKey: () => Buffer,
  teamId: string,
  input: { id: string } & z.output<typeof ScheduleNotifySchema>,
) {
  const s = await db.schedule.findFirst({
    where: { id: input.id, teamId },
    select: { id: true, webhookUrlSealed: true, webhookSecretSealed: true },
  });
  if (!s) throw new NotFoundError('schedule');
  const common = {
    baselineName: input.baselineName || null,
    notifyOn: input.notifyOn,
    webhookFormat: input.webhookFormat,
    settleUpToRepeats: input.settleUpToRepeats,
  };
  if (input.removeWebhook) {
    await db.schedule.update({
      where: { id: s.id },
      data: { ...common, webhookUrlSealed: null, webhookHost: null, webhookSecretSealed: null },
    });
    return;
  }
  if (!input.webhookUrl && !s.webhookUrlSealed) {
    // comparison without a webhook: the outcome still shows in the list
    if (input.webhookSecret) throw new InvalidInputError('webhookUrl', 'is required with a secret');
    await db.schedule.update({ where: { id: s.id }, data: common });
    return;
  }
  // the webhook as it will be (a stored URL counts): on regressions it needs something to regress against
  if (input.notifyOn === 'regression' && !input.baselineName)
    throw new InvalidInputError(
      'baselineName',
      'is required to notify on a regression: name the baseline each run is compared with',
    );
  if (!input.webhookSecret && !s.webhookSecretSealed)
    throw new InvalidInputError(
      'webhookSecret',
      'is required: every request is signed with it (HMAC-SHA256), so the receiver can tell it came from PoolBench',
    );
  if (input.webhookUrl) await checkWebhookUrl(db, teamId, input.webhookUrl);
  await db.schedule.update({
    where: { id: s.id },
    data: {
      ...common,
      ...(input.webhookUrl
        ? {
            webhookUrlSealed: sealSecret(input.webhookUrl, secretKey()),
            webhookHost: new URL(input.webhookUrl).host,
          }
        : {}),
      ...(input.webhookSecret
        ? { webhookSecretSealed: sealSecret(input.webhookSecret, secretKey()) }
        : {}),
    },
  });
}

/** Starts the schedule's experiment now, as a firing would (compared and notified the same way). */
export async function runScheduleNow(deps: { db: Db; queue: Queue }, teamId: string, id: string) {
  const s = await deps.db.schedule.findFirst({
    where: { id, teamId },
    select: { id: true, teamId: true, name: true, sourceExperimentId: true },
  });
  if (!s) throw new NotFoundError('schedule');
  const launched = await launchFiring(deps, s, { manual: true });
  return { experimentId: launched.experimentId };
}
