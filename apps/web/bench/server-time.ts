// Server time of the compare view (6 runs x 15 min) and of the run page's data procedure (one
// 15-minute run), measured through the tRPC caller (auth, team check, queries, statistics) against
// synthetic but realistic data in a temp database: real encoded HDR histograms per second.
import { execSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { createDb } from '@poolbench/db';
import { seed } from '@poolbench/runs';
import { withTempDatabase } from '@poolbench/db/testing';
import { createCaller } from '~/server/api/root';
import type { Context } from '~/server/api/context';
import {
  insertSyntheticRun,
  syntheticExperiment,
} from '~/server/services/compare/testing/synthetic-runs';
import { clearHistogramCache } from '~/server/services/compare/histogram-cache';

const SECONDS = 900;
const REPEATS = 3;
const WARMUP = 3;
const ITERATIONS = 25;

function quantile(sorted: number[], q: number) {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (h - lo);
}

async function time(fn: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { median: quantile(ms, 0.5), p90: quantile(ms, 0.9), min: ms[0]!, max: ms.at(-1)! };
}

const tmp = await withTempDatabase('web_bench');
const db = createDb({ url: tmp.url, applicationName: 'poolbench-web-bench' });
try {
  const { teamId, userId, targetId } = await seed(db);
  const scenario = await db.scenario.findFirstOrThrow({
    where: { teamId },
    select: { id: true, name: true },
  });
  const exp = await syntheticExperiment(
    db,
    teamId,
    targetId,
    scenario.id,
    ['lazy', 'prewarm'],
    REPEATS,
  );
  const t0 = performance.now();
  const runIds: string[] = [];
  for (let rep = 0; rep < REPEATS; rep++) {
    for (const [i, pc] of exp.poolConfigs.entries()) {
      runIds.push(
        await insertSyntheticRun(db, {
          teamId,
          experimentId: exp.experimentId,
          targetId,
          scenarioId: scenario.id,
          poolConfigId: pc.id,
          poolConfigName: pc.name,
          scenarioName: scenario.name,
          repeatIndex: rep,
          seconds: SECONDS,
          latencyMs: i === 0 ? 14 : 11,
          rps: 400,
          errorRate: 0.001,
          seed: 100 + rep * 10 + i,
        }),
      );
    }
  }
  const genSeconds = (performance.now() - t0) / 1000;
  await db.$executeRawUnsafe('ANALYZE');
  const [{ hist_bytes: histBytes } = { hist_bytes: 0 }] = await db.$queryRaw<
    Array<{ hist_bytes: number }>
  >`SELECT sum(octet_length("durationHist"))::int AS hist_bytes FROM "RunSecond"`;

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
  const caller = createCaller(ctx);
  const cells = exp.poolConfigs.map((pc) => ({
    kind: 'cell' as const,
    experimentId: exp.experimentId,
    poolConfigId: pc.id,
    scenarioId: scenario.id,
  }));
  const runItems = runIds.map((runId) => ({ kind: 'run' as const, runId }));
  // cold: the per-run merged-histogram cache emptied before every call (first view of a comparison)
  const compareCold = await time(() => {
    clearHistogramCache();
    return caller.compare.get({ selection: { items: cells } });
  });
  const compareCells = await time(() => caller.compare.get({ selection: { items: cells } }));
  const compareRuns = await time(() => {
    clearHistogramCache();
    return caller.compare.get({ selection: { items: runItems } });
  });
  const runSeries = await time(() => caller.run.series({ id: runIds[0]! }));
  const runPage = await time(() =>
    Promise.all([caller.run.get({ id: runIds[0]! }), caller.run.series({ id: runIds[0]! })]),
  );

  const cpu = cpus()[0]?.model ?? 'unknown';
  const f = (n: number) => n.toFixed(1);
  const row = (name: string, r: Awaited<ReturnType<typeof time>>, target: string) =>
    `| ${name} | ${f(r.median)} | ${f(r.p90)} | ${f(r.min)} | ${f(r.max)} | ${target} |`;
  const md = [
    '## Web: server time of the compare view and the run page',
    '',
    `Machine: ${cpus().length} CPUs (\`nproc\` ${execSync('nproc').toString().trim()}), ${cpu}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; Postgres 15 on loopback. Node ${process.version}.`,
    '',
    `Command: \`npx tsx apps/web/bench/run.ts\` (run by \`make bench\`). Data: a temp database with the seed plus ${runIds.length} synthetic succeeded runs of ${SECONDS} s`,
    `(2 pool configs x ${REPEATS} repeats, ~400 req/s): ${runIds.length * SECONDS} RunSecond rows with real encoded HDR duration histograms (${(histBytes / 2 ** 20).toFixed(1)} MiB in total)`,
    `and ${runIds.length * SECONDS} ResourceSample rows; generated in ${genSeconds.toFixed(0)} s. Each procedure is called through the tRPC server caller (team`,
    `resolution, every query, statistics, merged histograms, series bands), ${WARMUP} warm-up calls then ${ITERATIONS} timed calls, one after another.`,
    '',
    '| procedure | median ms | p90 ms | min ms | max ms | target |',
    '|---|---|---|---|---|---|',
    row(
      `compare.get, cold: 2 cells x ${REPEATS} repeats (${runIds.length} runs x ${SECONDS / 60} min)`,
      compareCold,
      '< 300 ms median',
    ),
    row(
      'compare.get, same comparison again (merged histograms of finished runs cached)',
      compareCells,
      '< 300 ms median',
    ),
    row(
      `compare.get, cold: ${runIds.length} single runs (${runIds.length} groups)`,
      compareRuns,
      '< 300 ms median',
    ),
    row(`run.series: one ${SECONDS / 60}-minute run (600 points)`, runSeries, '< 300 ms median'),
    row('run page data: run.get + run.series in parallel', runPage, '< 300 ms median'),
    '',
    `Result: compare view cold ${compareCold.median < 300 ? 'meets' : 'MISSES'} the 300 ms target (median ${f(compareCold.median)} ms, repeated view ${f(compareCells.median)} ms); run page data ${runPage.median < 300 ? 'meets' : 'MISSES'} it (median ${f(runPage.median)} ms).`,
    `Load average while measuring: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} (other work on the machine inflates every number).`,
    'Merging 5,400 per-second histograms dominates a cold compare view; it reads the stored V2 bytes with node:zlib and adds counts directly',
    '(`mergeStoredHistograms` of `@poolbench/stats/stored`, checked equal to `mergeHistograms`, which decodes each into a full histogram object and took ~8 s for the same work);',
    'per-second bands come back as one row of arrays per run and are reduced in JS (`series-bands.ts`).',
  ].join('\n');
  console.log(md);
  execSync('node scripts/bench-section.mjs web-server-time', {
    input: md,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
} finally {
  await db.$disconnect();
  await tmp.dispose();
}
