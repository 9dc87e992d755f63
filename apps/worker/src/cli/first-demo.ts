import { createHash, randomBytes } from 'node:crypto';
import { createDb, DEMO_EMAIL, DEMO_TEAM_SLUG } from '@poolbench/db';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { loadEnv } from '../env';
import { DemoError, launchDemoExperiment } from './demo-experiment';

/**
 * The first `make up`: a demo team with no experiment gets the seed 004 demo experiment, run by
 * the real worker, and once it is finished a share link to it, so a first visitor sees real runs,
 * a comparison with verdicts and a link to hand on. 5 repeats per config (the app's default): with
 * 4 the smallest Mann-Whitney p, adjusted across the metrics, stays at 0.05 and every verdict is
 * inconclusive however large the difference. Nothing is precomputed. Idempotent: a demo team that has any experiment is left alone.
 * Prints the share URL; exits 0 also when there is nothing to do.
 */
const REPEATS = 5;
const WAIT_MS = 15 * 60_000;
const env = loadEnv();
const db = createDb({ url: env.DATABASE_URL, applicationName: 'poolbench-first-demo' });
const redis = producerConnection(env.REDIS_URL);
const queue = createRunQueue(redis, env.QUEUE_PREFIX);
const baseUrl = (process.env.POOLBENCH_URL ?? 'http://localhost:3000').replace(/\/$/, '');

try {
  const team = await db.team.findUnique({
    where: { slug: DEMO_TEAM_SLUG },
    select: { id: true, _count: { select: { experiments: true } } },
  });
  if (!team) throw new DemoError('demo team missing: the seed did not run');
  if (team._count.experiments > 0) {
    console.log('first-demo: the demo team already has experiments; nothing to do');
  } else {
    const launched = await launchDemoExperiment(db, queue, {
      repeats: REPEATS,
      name: (title) => `Demo: ${title}`,
    });
    console.log(
      `first-demo: queued ${launched.runIds.length} runs of experiment ${launched.experimentId} (${baseUrl}/experiments/${launched.experimentId})`,
    );
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const runs = await db.run.findMany({
        where: { experimentId: launched.experimentId },
        select: { status: true },
      });
      if (runs.every((r) => TERMINAL_RUN_STATUSES.includes(r.status))) break;
      if (Date.now() > deadline)
        throw new DemoError(
          `the demo experiment did not finish in ${WAIT_MS / 60_000} min; no share link made`,
        );
      await new Promise((r) => setTimeout(r, 2000));
    }
    // the token format and its stored sha256 are the web app's (apps/web share-links/token.ts):
    // 256 random bits as base64url, only the hash is kept
    const token = randomBytes(32).toString('base64url');
    const user = await db.user.findUnique({ where: { email: DEMO_EMAIL }, select: { id: true } });
    await db.shareLink.create({
      data: {
        teamId: launched.teamId,
        kind: 'experiment',
        experimentId: launched.experimentId,
        tokenHash: createHash('sha256').update(token).digest('hex'),
        title: 'Demo: seed 004 experiment',
        createdById: user?.id ?? null,
      },
    });
    console.log(`first-demo: finished; share link (signed out): ${baseUrl}/share/${token}`);
  }
} catch (err) {
  console.error(`first-demo: ${err instanceof DemoError ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await queue.close();
  redis.disconnect();
  await db.$disconnect();
}
