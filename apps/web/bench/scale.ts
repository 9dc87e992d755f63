// The compare view, the run list and the run page with a year of history in the database: 10 000
// runs (600 000 per-second rows and as many resource samples, in monthly partitions) against the
// same calls on a database with only today's runs. Both databases exist at once and the calls
// alternate A, B, A, B … so load from elsewhere hits both alike (the ratio is the cost of the
// history). Writes the `web-scale` section of docs/benchmarks.md.
import { execSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { createDb, ensureMonthPartition, listPartitions, PARTITIONED_TABLES } from '@poolbench/db';
import { seed } from '@poolbench/runs';
import { withTempDatabase } from '@poolbench/db/testing';
import { createCaller } from '~/server/api/root';
import type { Context } from '~/server/api/context';
import {
  insertSyntheticRun,
  syntheticExperiment,
} from '~/server/services/compare/testing/synthetic-runs';
import { clearHistogramCache } from '~/server/services/compare/histogram-cache';

const TOTAL_RUNS = 10_000;
const TODAY_SECONDS = 900; // the compared runs: 2 configs x 3 repeats x 15 min, as in web-server-time
const HISTORY_SECONDS = 60; // each historic run: one minute of per-second rows
const HISTORY_EXPERIMENTS = 250;
const WARMUP = 3;
const ITERATIONS = 20;
const DAY_MS = 86_400_000;

function quantile(sorted: number[], q: number) {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (h - lo);
}
type Stat = { median: number; p90: number };
/** A and B alternated call by call, after warm-up of both. */
async function timeAB(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[Stat, Stat]> {
  for (let i = 0; i < WARMUP; i++) {
    await a();
    await b();
  }
  const ms: [number[], number[]] = [[], []];
  for (let i = 0; i < ITERATIONS; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const t = performance.now();
      await fn();
      ms[k]!.push(performance.now() - t);
    }
  }
  return ms.map((m) => {
    m.sort((x, y) => x - y);
    return { median: quantile(m, 0.5), p90: quantile(m, 0.9) };
  }) as [Stat, Stat];
}

/** A database with the seed, the compared experiment and the template run: the same in A and B (fixed seeds). */
async function today(label: string) {
  const tmp = await withTempDatabase(label);
  const db = createDb({ url: tmp.url, applicationName: 'poolbench-web-bench' });
  const { teamId, userId, targetId } = await seed(db);
  const scenario = await db.scenario.findFirstOrThrow({
    where: { teamId },
    orderBy: { name: 'asc' },
    select: { id: true, name: true },
  });
  const exp = await syntheticExperiment(db, teamId, targetId, scenario.id, ['lazy', 'prewarm'], 3);
  for (let rep = 0; rep < 3; rep++) {
    for (const [i, pc] of exp.poolConfigs.entries()) {
      await insertSyntheticRun(db, {
        teamId,
        experimentId: exp.experimentId,
        targetId,
        scenarioId: scenario.id,
        poolConfigId: pc.id,
        poolConfigName: pc.name,
        scenarioName: scenario.name,
        repeatIndex: rep,
        seconds: TODAY_SECONDS,
        latencyMs: i === 0 ? 14 : 11,
        rps: 400,
        errorRate: 0.001,
        seed: 100 + rep * 10 + i,
      });
    }
  }
  // The template every historic run copies: one real minute-long run, written the worker's way.
  const template = await insertSyntheticRun(db, {
    teamId,
    experimentId: exp.experimentId,
    targetId,
    scenarioId: scenario.id,
    poolConfigId: exp.poolConfigs[0]!.id,
    poolConfigName: exp.poolConfigs[0]!.name,
    scenarioName: scenario.name,
    repeatIndex: 3,
    seconds: HISTORY_SECONDS,
    latencyMs: 12,
    rps: 400,
    seed: 7,
  });
  const ctx: Context = {
    db,
    redis: () => {
      throw new Error('not used');
    },
    runQueue: () => {
      throw new Error('not used');
    },
    secretKey: () => Buffer.alloc(32),
    user: { id: userId, name: 'bench', email: 'bench@example.test' },
    sessionId: null,
    activeTeamId: teamId,
  };
  const cells = exp.poolConfigs.map((pc) => ({
    kind: 'cell' as const,
    experimentId: exp.experimentId,
    poolConfigId: pc.id,
    scenarioId: scenario.id,
  }));
  return {
    tmp,
    db,
    teamId,
    targetId,
    template,
    caller: createCaller(ctx),
    cells,
    scenarioId: scenario.id,
    poolConfigId: exp.poolConfigs[0]!.id,
  };
}
type Setup = Awaited<ReturnType<typeof today>>;

/**
 * A year of history: 250 experiments, runs spread evenly over 365 days, each with the template's
 * 60 seconds shifted to its own start. Partitions for every month first, so rows go straight to
 * their month (what the maintenance does ahead of time in production).
 */
async function addHistory({ db, teamId, targetId, template }: Setup) {
  const now = Date.now();
  for (const table of PARTITIONED_TABLES)
    for (let d = 0; d <= 380; d += 28)
      await ensureMonthPartition(db, table, new Date(now - d * DAY_MS));
  const historic = TOTAL_RUNS - (await db.run.count());
  await db.$executeRawUnsafe(
    `INSERT INTO "Experiment" (id, "teamId", "targetId", name, repeats, status, "createdAt", "updatedAt")
     SELECT 'hx' || g, $1, $2, 'History ' || g, 1, 'completed', now() - g * interval '1 day' * 365 / ${HISTORY_EXPERIMENTS}, now()
       FROM generate_series(1, ${HISTORY_EXPERIMENTS}) g`,
    teamId,
    targetId,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO "Run" (id, "teamId", "experimentId", "targetId", "poolConfigId", "scenarioId", "repeatIndex", sequence, "poolConfigSnapshot", "scenarioSnapshot",
                        "targetSnapshot", status, "queuedAt", "startedAt", "finishedAt", summary, "durationHist", "blockedHist", environment, "createdAt", "updatedAt")
     SELECT 'hr' || g, t."teamId", 'hx' || (1 + g % ${HISTORY_EXPERIMENTS}), t."targetId", t."poolConfigId", t."scenarioId", g / ${HISTORY_EXPERIMENTS}, g,
            t."poolConfigSnapshot", t."scenarioSnapshot", t."targetSnapshot", 'succeeded', s.at, s.at, s.at + interval '${HISTORY_SECONDS} seconds',
            t.summary, t."durationHist", t."blockedHist", t.environment, s.at, now()
       FROM "Run" t, generate_series(1, ${historic}) g, LATERAL (SELECT now() - g * interval '1 day' * 365 / ${historic} AS at) s
      WHERE t.id = $1`,
    template,
  );
  // Every other column copied from the template, named from the live table so columns added later are copied too.
  for (const table of PARTITIONED_TABLES) {
    const cols = (
      await db.$queryRaw<
        Array<{ c: string }>
      >`SELECT column_name AS c FROM information_schema.columns WHERE table_name = ${table} AND column_name NOT IN ('runId', 'ts') ORDER BY ordinal_position`
    ).map((r) => `"${r.c}"`);
    await db.$executeRawUnsafe(
      `INSERT INTO "${table}" ("runId", ts, ${cols.join(', ')})
       SELECT r.id, r."startedAt" + x.second * interval '1 second', ${cols.map((c) => `x.${c}`).join(', ')}
         FROM "Run" r JOIN "${table}" x ON x."runId" = $1 WHERE r.id LIKE 'hr%'`,
      template,
    );
  }
  return `hr${historic}`; // the run from a year ago
}

const A = await today('web_scale_a');
const B = await today('web_scale_b');
try {
  const t0 = performance.now();
  const oldRun = await addHistory(B);
  const genS = (performance.now() - t0) / 1000;
  await A.db.$executeRawUnsafe('ANALYZE');
  await B.db.$executeRawUnsafe('ANALYZE');
  const counts = await B.db.$queryRaw<
    Array<{ runs: number; seconds: number; samples: number; bytes: string }>
  >`
    SELECT (SELECT count(*) FROM "Run")::int AS runs, (SELECT count(*) FROM "RunSecond")::int AS seconds,
           (SELECT count(*) FROM "ResourceSample")::int AS samples, pg_size_pretty(pg_database_size(current_database())) AS bytes`;
  const parts = (await listPartitions(B.db)).filter(
    (p) => p.table === 'RunSecond' && p.rows > 0,
  ).length;
  // page 40 of B's run list: a cursor 1 000 runs deep (A has no such page; it lists its first)
  let cursor: string | null | undefined;
  for (let p = 0; p < 39; p++) cursor = (await B.caller.run.list({ limit: 25, cursor })).nextCursor;

  const both = (f: (s: Setup) => Promise<unknown>) =>
    timeAB(
      () => f(A),
      () => f(B),
    );
  const results: Array<[string, [Stat, Stat]]> = [
    [
      'compare.get, cold: 2 cells x 3 repeats of 15-minute runs',
      await both((s) => {
        clearHistogramCache();
        return s.caller.compare.get({ selection: { items: s.cells } });
      }),
    ],
    ['run.list, first page (25)', await both((s) => s.caller.run.list({ limit: 25 }))],
    [
      'run.list, scenario + pool config + status filter',
      await both((s) =>
        s.caller.run.list({
          limit: 25,
          scenarioId: s.scenarioId,
          poolConfigId: s.poolConfigId,
          status: ['succeeded'],
        }),
      ),
    ],
    [
      'run.list, page 40 in B (cursor 1 000 runs deep); A: its only page',
      await timeAB(
        () => A.caller.run.list({ limit: 25 }),
        () => B.caller.run.list({ limit: 25, cursor }),
      ),
    ],
    ['experiment.list, first page', await both((s) => s.caller.experiment.list({ limit: 25 }))],
    [
      'run page data (run.get + run.series): in B a run from a year ago',
      await timeAB(
        () =>
          Promise.all([
            A.caller.run.get({ id: A.template }),
            A.caller.run.series({ id: A.template }),
          ]),
        () => Promise.all([B.caller.run.get({ id: oldRun }), B.caller.run.series({ id: oldRun })]),
      ),
    ],
  ];

  const f = (n: number) => n.toFixed(1);
  const c = counts[0]!;
  const worst = Math.max(...results.map(([, [, b]]) => b.median));
  const md = [
    '## Web: compare view, run list and run page with 10 000 runs in the database',
    '',
    `Machine: ${cpus().length} CPUs (\`nproc\` ${execSync('nproc').toString().trim()}), ${cpus()[0]?.model ?? 'unknown'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; Postgres 15 on loopback. ${new Date().toISOString().slice(0, 16)}Z.`,
    '',
    `Command: \`npx tsx apps/web/bench/run.ts\` (run by \`make bench\`; this part is \`apps/web/bench/scale.ts\`). Two temp databases with the seed, the compared`,
    `experiment (2 configs x 3 repeats of ${TODAY_SECONDS / 60}-minute runs with real encoded HDR histograms) and one real ${HISTORY_SECONDS}-second run. B also holds a year of history copied`,
    `from that run with SQL: ${c.runs} runs in all, ${c.seconds.toLocaleString('en')} RunSecond and ${c.samples.toLocaleString('en')} ResourceSample rows in ${parts} monthly partitions, ${c.bytes} on disk (added in ${genS.toFixed(0)} s).`,
    `Every call goes through the tRPC server caller; ${WARMUP} warm-up calls, then ${ITERATIONS} timed calls alternating A and B; the compare view cold (merged-histogram cache emptied before each call).`,
    '',
    '| call | A: today only, median ms | B: 10 000 runs, median ms | B p90 ms | B / A |',
    '|---|---|---|---|---|',
    ...results.map(
      ([name, [a, b]]) =>
        `| ${name} | ${f(a.median)} | ${f(b.median)} | ${f(b.p90)} | ${(b.median / a.median).toFixed(2)} |`,
    ),
    '',
    `Result: with 10 000 runs every call's median is ${worst < 300 ? 'under' : 'NOT under'} the 300 ms goal (slowest ${f(worst)} ms).`,
    `Load average while measuring: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} (other work on the machine inflates every number).`,
  ].join('\n');
  console.log(md);
  execSync('node scripts/bench-section.mjs web-scale', {
    input: md,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
} finally {
  for (const s of [A, B]) {
    await s.db.$disconnect();
    // BENCH_KEEP_DB=1 keeps the databases to look at query plans (printed URL; drop them by hand)
    if (process.env.BENCH_KEEP_DB) console.log(`kept ${s.tmp.url}`);
    else await s.tmp.dispose();
  }
}
