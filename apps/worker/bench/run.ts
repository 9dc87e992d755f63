import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import { median, quantile } from '@poolbench/stats';
import { createWorld, sustained } from '../test/harness';

/**
 * Worker benchmark (make bench): time from enqueue to k6's first request with a warm worker, and
 * the database bytes stored per second of run. Writes the "worker" section of docs/benchmarks.md.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const w = await createWorld('bench');
try {
  // A local HTTP target that notes when each run's first request arrives (runs go one at a time).
  let firstRequestAt: number | null = null;
  const server = createServer((_req, res) => {
    firstRequestAt ??= Date.now();
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await w.db.allowedHost.create({
    data: { teamId: w.ids.teamId, pattern: '127.0.0.1', createdById: w.ids.userId },
  });
  const target = await w.db.target.create({
    data: {
      teamId: w.ids.teamId,
      name: 'bench http',
      kind: 'url',
      baseUrls: [`http://127.0.0.1:${port}`],
      requestDefaults: {},
      secretHeaderNames: [],
    },
  });
  const urlConfig = await w.db.poolConfig.create({
    data: {
      teamId: w.ids.teamId,
      targetId: target.id,
      name: 'as deployed',
      strategy: 'lazy',
      params: { maxConns: 2 },
    },
  });
  const shortScenario = await w.scenario('bench 2 s', { ...sustained(2, 2000), readyPath: '/' });
  const worker = w.startWorker();

  const measure = async () => {
    firstRequestAt = null;
    const t0 = Date.now();
    const { runIds } = await w.launch([urlConfig.id], [shortScenario.id], 1, target.id);
    const run = await w.waitForStatus(runIds[0]!, [
      'succeeded',
      'failed',
      'canceled',
      'timed_out',
      'aborted_system',
    ]);
    if (run.status !== 'succeeded') throw new Error(`bench run ${run.status}: ${run.errorMessage}`);
    return { total: firstRequestAt! - t0, toRunning: run.startedAt!.getTime() - t0 };
  };
  await measure(); // warm-up: first run pays module loading and the version probes
  const samples: { total: number; toRunning: number }[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await measure());

  // Managed lab target: the same path plus a cold start of the target process.
  const managedConfig = await w.poolConfig('bench lazy', 'lazy', { maxConns: 4 });
  const managedScenario = await w.scenario('bench 30 s', sustained(4, 30_000));
  const managedToRunning: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const { runIds } = await w.launch([managedConfig.id], [shortScenario.id]);
    const run = await w.waitForStatus(runIds[0]!, ['succeeded', 'failed']);
    managedToRunning.push(run.startedAt!.getTime() - t0);
  }
  const { runIds } = await w.launch([managedConfig.id], [managedScenario.id]);
  const long = await w.waitForStatus(runIds[0]!, ['succeeded', 'failed']);
  const [sec] = await w.db.$queryRaw<
    { bytes: bigint; rows: bigint }[]
  >`SELECT coalesce(sum(pg_column_size(r.*)), 0)::bigint AS bytes, count(*)::bigint AS rows FROM "RunSecond" r WHERE "runId" = ${long.id}`;
  const [res] = await w.db.$queryRaw<
    { bytes: bigint; rows: bigint }[]
  >`SELECT coalesce(sum(pg_column_size(r.*)), 0)::bigint AS bytes, count(*)::bigint AS rows FROM "ResourceSample" r WHERE "runId" = ${long.id}`;
  const seconds = Number(sec!.rows);
  const perSecond = (Number(sec!.bytes) + Number(res!.bytes)) / Math.max(1, seconds);
  worker.kill('SIGTERM');
  server.close();

  const totals = samples.map((s) => s.total);
  const fmt = (xs: number[]) =>
    `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs)}, p90 ${quantile(xs, 0.9).toFixed(0)}, max ${Math.max(...xs)})`;
  const section = [
    '## Worker: enqueue to first request, and storage per second',
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model}. Command: \`npx tsx apps/worker/bench/run.ts\` (from \`make bench\`), ${new Date().toISOString().slice(0, 16)}Z.`,
    '',
    '| measure | result | target |',
    '|---|---|---|',
    `| enqueue → k6's first request at the target, warm worker, URL target (${RUNS} runs after 1 warm-up) | ${fmt(totals)} | median < 2000 ms: **${median(totals) < 2000 ? 'met' : 'missed'}** |`,
    `| of which enqueue → status running (claim, allowlist, readiness, fingerprint) | ${fmt(samples.map((s) => s.toRunning))} | |`,
    `| enqueue → running with a managed lab target (includes its cold start; the first run on a worker also checks the lab data set-up), 3 runs | ${fmt(managedToRunning)} | |`,
    `| database bytes per second of run (RunSecond with 6 HDR histograms + ResourceSample rows, 1 instance; row data, excluding indexes) | ${perSecond.toFixed(0)} B/s over ${seconds} s | |`,
    '',
    'The rest of enqueue → first request is k6 itself: process start, script compile and setup().',
  ].join('\n');
  console.log(section);
  execFileSync(
    process.execPath,
    [new URL('../../../scripts/bench-section.mjs', import.meta.url).pathname, 'worker'],
    { input: section, stdio: ['pipe', 'inherit', 'inherit'] },
  );
} finally {
  await w.dispose();
}
