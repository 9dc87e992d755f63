import { readFileSync, writeFileSync } from 'node:fs';
import { saveResults } from './results-file';
import { cpus, loadavg, totalmem } from 'node:os';
import { createDb, DEMO_TEAM_SLUG, LAB_TARGET_NAME } from '@poolbench/db';
import { launchSeeds, replaceSeedsResults, seedResults, seedsMarkdown } from '@poolbench/runs';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import { ScaleSchema } from '@poolbench/scenarios';
import { loadEnv } from '../env';

/**
 * `make seeds`: every seed preset as an experiment through the queue (the product's launch path,
 * 5 counterbalanced repeats of the cells its claims name, the claims as hypotheses, then "until
 * decided": a round at a time until the sequential rule decides every claim, at most UNTIL_DECIDED
 * repeats per side, default 15; UNTIL_DECIDED=0 decides once after the 5), waits until the running
 * worker has finished them, and writes docs/seeds.md's results section from what the product
 * decided. SEEDS=004,002 runs a subset (the section then shows every other preset from its latest
 * earlier reproduction); SCALE=1 the seeds' real lengths.
 */
const env = loadEnv();
const fail = (msg: string): never => {
  console.error(`seeds: ${msg}`);
  process.exit(1);
};
const seeds = (process.env.SEEDS ?? '').split(/[,\s]+/).filter(Boolean);
const scaleParsed = process.env.SCALE ? ScaleSchema.safeParse(Number(process.env.SCALE)) : null;
if (scaleParsed && !scaleParsed.success)
  fail(`SCALE: ${scaleParsed.error.issues[0]?.message ?? 'invalid'} (got "${process.env.SCALE}")`);
const scale = scaleParsed?.success ? scaleParsed.data : undefined;
const untilRaw = process.env.UNTIL_DECIDED ?? '15';
const untilDecided = Number(untilRaw);
if (!Number.isInteger(untilDecided) || untilDecided < 0 || untilDecided > 50)
  fail(`UNTIL_DECIDED: must be a whole number from 0 (decide once) to 50 (got "${untilRaw}")`);
const TERMINAL = ['completed', 'failed', 'canceled'];

const db = createDb({ url: env.DATABASE_URL, applicationName: 'poolbench-seeds' });
const redis = producerConnection(env.REDIS_URL);
const queue = createRunQueue(redis, env.QUEUE_PREFIX);
try {
  const team =
    (await db.team.findUnique({ where: { slug: DEMO_TEAM_SLUG } })) ??
    fail('demo team missing: run `make up` (it seeds the database)');
  const target =
    (await db.target.findFirst({
      where: { teamId: team.id, name: LAB_TARGET_NAME, archivedAt: null },
    })) ?? fail('lab target missing: run `make up`');
  const live = await db.worker.count({
    where: { lastSeenAt: { gte: new Date(Date.now() - 15_000) }, stoppedAt: null },
  });
  if (live === 0) fail('no worker is running: start everything with `make up`');
  const startLoad = loadavg()[0]!.toFixed(2);
  const t0 = Date.now();
  let launched;
  try {
    launched = await launchSeeds({ db, queue }, team.id, target.id, {
      seeds,
      scale,
      untilDecided: untilDecided || null,
    });
  } catch (err) {
    fail((err as Error).message);
  }
  const { reproductionId, launched: list } = launched!;
  const estimate = list.reduce((ms, l) => ms + l.plan.estimatedMs, 0);
  console.log(
    `seeds: reproduction ${reproductionId}: ${list.length} experiments, ${list.reduce((n, l) => n + l.plan.runs, 0)} runs, at most ~${Math.round(estimate / 60_000)} min of load`,
  );
  for (const l of list)
    console.log(
      `seeds:   ${l.plan.preset.seed} ${l.launch.experimentId} ${l.plan.preset.title} (scale ${l.plan.preset.scale}, ${l.plan.runs} runs, ${l.plan.preset.hypotheses.length} claims)${l.launch.enqueued ? '' : ` NOT ENQUEUED: ${l.launch.queueMessage}`}`,
    );

  const ids = list.map((l) => l.launch.experimentId);
  let last = '';
  for (;;) {
    const exps = await db.experiment.findMany({
      where: { id: { in: ids } },
      select: { status: true, hypotheses: { select: { status: true } } },
    });
    const runs = await db.run.groupBy({
      by: ['status'],
      where: { experimentId: { in: ids } },
      _count: true,
    });
    const done = exps.filter(
      (e) => TERMINAL.includes(e.status) && e.hypotheses.every((h) => h.status !== 'pending'),
    ).length;
    const line = `seeds: ${done}/${ids.length} experiments decided; runs ${runs.map((r) => `${r.status} ${r._count}`).join(', ')}`;
    if (line !== last) console.log(`${line} (${Math.round((Date.now() - t0) / 1000)} s)`);
    last = line;
    if (done === ids.length) break;
    await new Promise((r) => setTimeout(r, 2000));
  }

  const result =
    (await seedResults(db, team.id, reproductionId, { fillFromEarlier: seeds.length > 0 })) ??
    fail('the reproduction disappeared');
  const command = `make seeds${seeds.length ? ` SEEDS=${seeds.join(',')}` : ''}${scale !== undefined ? ` SCALE=${scale}` : ''}`;
  const section = seedsMarkdown(result, {
    command,
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    elapsedS: (Date.now() - t0) / 1000,
    load: `${startLoad} / ${loadavg()[0]!.toFixed(2)}`,
  });
  console.log(`\n${section}\n`);
  saveResults('seeds', section, () => {
    const file = new URL('../../../../docs/seeds.md', import.meta.url);
    writeFileSync(file, replaceSeedsResults(readFileSync(file, 'utf8'), section));
    console.log('seeds: docs/seeds.md results section updated');
  });
} finally {
  await queue.close();
  redis.disconnect();
  await db.$disconnect();
}
