import { DEMO_TEAM_SLUG, LAB_TARGET_NAME, type Db } from '@poolbench/db';
import { launchAndEnqueue } from '@poolbench/runs';
import type { Queue } from 'bullmq';
import { getPreset } from '@poolbench/scenarios';

/** Why the demo experiment could not be launched, in words a `make` user can act on. */
export class DemoError extends Error {}

const PRESET_ID = 'seed-004-per-request-vs-shared-pool';
// The demo runs two of the preset's three configs, so it is named for those two, not by the
// preset's title (which also names the pool per request).
const CONFIGS = ['open/close per request', 'shared pool (max 20, min 5)'] as const;
export const DEMO_TITLE = 'Seed 004: connection per request vs shared pool';

/**
 * Launches the seed 004 preset (open/close per request vs one shared pool, ab -c 100, scaled down)
 * in the demo team as a real experiment through the queue: the rows the seed created, the real
 * worker runs it. Shared by `make demo` and the first `make up`.
 */
export async function launchDemoExperiment(
  db: Db,
  queue: Queue,
  opts: { repeats: number; name: (title: string) => string },
) {
  const preset = getPreset(PRESET_ID);
  if (!preset) throw new DemoError('seed 004 preset missing');
  const team = await db.team.findUnique({ where: { slug: DEMO_TEAM_SLUG } });
  if (!team) throw new DemoError('demo team missing: run `make up` (it seeds the database)');
  const target = await db.target.findFirst({
    where: { teamId: team.id, name: LAB_TARGET_NAME, archivedAt: null },
  });
  if (!target) throw new DemoError('lab target missing: run `make up`');
  const live = await db.worker.count({
    where: { lastSeenAt: { gte: new Date(Date.now() - 15_000) }, stoppedAt: null },
  });
  if (live === 0) throw new DemoError('no worker is running: start everything with `make up`');
  const configs = [];
  for (const n of CONFIGS) {
    const name = `${preset.seed} · ${n}`;
    const c = await db.poolConfig.findFirst({ where: { targetId: target.id, name } });
    if (!c) throw new DemoError(`pool config "${name}" missing: run \`make up\``);
    configs.push(c);
  }
  const scenario = await db.scenario.findFirst({
    where: { teamId: team.id, presetId: `${preset.id}#ab-c100` },
  });
  if (!scenario) throw new DemoError('seed 004 scenario missing: run `make up`');
  const launched = await launchAndEnqueue(
    { db, queue },
    {
      teamId: team.id,
      targetId: target.id,
      poolConfigIds: configs.map((c) => c.id),
      scenarioIds: [scenario.id],
      repeats: opts.repeats,
      name: opts.name(DEMO_TITLE),
      presetId: preset.id,
    },
  );
  if (!launched.enqueued)
    throw new DemoError(launched.queueMessage ?? 'the run queue is unavailable');
  return { ...launched, teamId: team.id, preset, configs, scenario };
}
