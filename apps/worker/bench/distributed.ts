import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { launchAndEnqueue } from '@poolbench/runs';
import { median } from '@poolbench/stats';
import { createWorld, waitFor } from '../test/harness';
import { canMakeNamespaces, makeHosts } from '../test/netns';
import { SERVICE_DEFAULTS } from '@poolbench/contracts';

/**
 * Distributed runs benchmark (make bench): the start skew between load generators over 10 runs on
 * 3 generators (3 workers in 3 network namespaces joined by a bridge when run as root, else 3
 * workers on loopback), and the stored bytes per second of a run on 3 generators vs on one.
 * Writes the "distributed" section of docs/benchmarks.md.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const GENERATORS = 3;
const w = await createWorld('benchdist');
const hosts = canMakeNamespaces() ? await makeHosts(GENERATORS) : null;
try {
  const base: Record<string, string> = { RUN_HEARTBEAT_MS: '500', SEGMENT_START_LEAD_MS: '2500' };
  if (hosts) {
    const dbName = (await w.db.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`)[0]!
      .name;
    const dbUrl = new URL(process.env.DATABASE_URL ?? SERVICE_DEFAULTS.DATABASE_URL);
    dbUrl.pathname = `/${dbName}`;
    const labUrl = new URL(dbUrl);
    labUrl.pathname = '/poolbench_lab';
    base.DATABASE_URL = await hosts.urlFor(dbUrl.toString());
    base.REDIS_URL = await hosts.urlFor(process.env.REDIS_URL ?? SERVICE_DEFAULTS.REDIS_URL);
    base.LAB_DATABASE_URL = await hosts.urlFor(process.env.LAB_DATABASE_URL ?? labUrl.toString());
  }
  for (let i = 0; i < GENERATORS; i++) {
    w.startWorker(
      {
        ...base,
        WORKER_ID: `benchdist-${i}`,
        ...(hosts ? { WORKER_ADVERTISE_HOST: hosts.addressOf(i) } : {}),
      },
      hosts ? { netns: hosts.names[i] } : {},
    );
  }
  await waitFor(
    'workers registered',
    async () =>
      (await w.db.worker.count({ where: { id: { startsWith: 'benchdist-' } } })) === GENERATORS,
    60_000,
  );
  const pc = await w.poolConfig('bench dist', 'lazy', { maxConns: 4 });
  const sc = await w.scenario('bench 300 rps 5 s', {
    template: 'constant-arrival-rate',
    params: { ratePerSec: 300, durationMs: 5000, preAllocatedVUs: 30, maxVUs: 90 },
    requests: [{ path: '/health' }],
    readyPath: '/ready',
  });
  const runOn = async (loadGenerators: number) => {
    const { runIds } = await launchAndEnqueue(
      { db: w.db, queue: w.queue },
      {
        teamId: w.ids.teamId,
        targetId: w.ids.targetId,
        poolConfigIds: [pc.id],
        scenarioIds: [sc.id],
        repeats: 1,
        name: 'bench',
        loadGenerators,
      },
    );
    const run = await w.waitForStatus(
      runIds[0]!,
      ['succeeded', 'failed', 'canceled', 'timed_out', 'aborted_system'],
      120_000,
    );
    if (run.status !== 'succeeded') throw new Error(`bench run ${run.status}: ${run.errorMessage}`);
    return run;
  };
  const skews: number[] = [];
  const spreads: number[] = [];
  let distributedRunId = '';
  for (let i = 0; i < RUNS; i++) {
    const run = await runOn(GENERATORS);
    distributedRunId = run.id;
    const segs = await w.db.runSegment.findMany({ where: { runId: run.id } });
    const s = segs.map((x) => x.startSkewMs!).sort((a, b) => a - b);
    skews.push(...s.slice(1)); // the earliest generator is the reference (0)
    spreads.push(Math.max(...s));
  }
  const single = await runOn(1);
  // Per second that carried load: k6's start-up seconds (vus gauge only) would dilute the average.
  const bytesOf = async (runId: string, segment: 'all' | 'gen') => {
    const [r] = await w.db.$queryRaw<{ bytes: bigint; seconds: bigint }[]>`
      SELECT coalesce(sum(pg_column_size(r.*)), 0)::bigint AS bytes, count(DISTINCT second)::bigint AS seconds
        FROM "RunSecond" r WHERE "runId" = ${runId} AND (${segment} = 'all' AND segment = 'all' OR ${segment} = 'gen' AND segment LIKE 'gen:%')
         AND second IN (SELECT second FROM "RunSecond" WHERE "runId" = ${runId} AND segment = 'all' AND requests > 0)`;
    return Number(r!.bytes) / Math.max(1, Number(r!.seconds));
  };
  const oneAll = await bytesOf(single.id, 'all');
  const distAll = await bytesOf(distributedRunId, 'all');
  const distGen = await bytesOf(distributedRunId, 'gen');
  const f = (xs: number[]) =>
    `median ${median(xs).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
  const section = [
    '## Distributed runs: start skew and merged output bytes',
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model}. Command: \`npx tsx apps/worker/bench/distributed.ts\` (from \`make bench\`), ${new Date().toISOString().slice(0, 16)}Z.`,
    `${GENERATORS} workers ${hosts ? 'in 3 network namespaces joined by a bridge (root)' : 'on loopback (not root: no namespaces)'}, one managed lab target, constant arrival rate 300 req/s for 5 s, start lead 2.5 s.`,
    '',
    '| measure | result |',
    '|---|---|',
    `| start skew of a generator (its first load iteration minus the earliest generator's), ${RUNS} runs × ${GENERATORS - 1} later generators | ${f(skews)} |`,
    `| spread per run (latest minus earliest generator), ${RUNS} runs | ${f(spreads)} |`,
    `| stored bytes per load second, merged run rows ('all'), ${GENERATORS} generators vs 1 | ${distAll.toFixed(0)} B/s vs ${oneAll.toFixed(0)} B/s (${(distAll / oneAll).toFixed(2)}×) |`,
    `| plus the generators' own rows (gen:0..${GENERATORS - 1}, kept for the exact merge and per-generator views) | ${distGen.toFixed(0)} B/s, total ${(distAll + distGen).toFixed(0)} B/s (${((distAll + distGen) / oneAll).toFixed(2)}× one generator) |`,
    '',
    'Same machine as the other benchmarks, shared with other work while it ran: skew includes that noise. Row bytes are pg_column_size of the rows (data, not indexes).',
    '',
    "Skew is each generator's load start (k6's end line: its first load iteration) minus the earliest generator's; every generator waits in setup() for one common start instant. Namespaces share one clock, so these numbers are the barrier's and k6's; across real hosts add their clock offset (NTP).",
  ].join('\n');
  console.log(section);
  execFileSync(
    process.execPath,
    [new URL('../../../scripts/bench-section.mjs', import.meta.url).pathname, 'distributed'],
    { input: section, stdio: ['pipe', 'inherit', 'inherit'] },
  );
} finally {
  await w.dispose();
  await hosts?.dispose();
}
