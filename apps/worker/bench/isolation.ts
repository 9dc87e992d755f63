import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { parseRun, scenarioRowData, toJson } from '@poolbench/db';
import { applyScale, getPreset } from '@poolbench/scenarios';
import { iqr, median, quantile } from '@poolbench/stats';
import { createWorld, waitFor } from '../test/harness';

/**
 * CPU isolation A/B (make bench, section cpu-isolation): one seed-002 cell (one instance, pool 5,
 * GOMAXPROCS 1, the seed's 1000 req/s at the seeds scale) run REPEATS times with k6 and the target
 * on separate CPUs and REPEATS times sharing every CPU, interleaved in one experiment through the
 * real worker. Reports the spread of p99 over the repeats (IQR / median) and of req/s per side.
 * BENCH_ISOLATION_REPEATS sets the repeats per side (default 10).
 */
const REPEATS = Number(process.env.BENCH_ISOLATION_REPEATS ?? 10);
const PRESET = 'seed-002-pool-size-fixed-rate';

const spread = (xs: number[]) => iqr(xs) / median(xs);

const w = await createWorld('benchisolation');
try {
  w.startWorker();
  await waitFor('worker registered', async () => (await w.db.worker.count()) > 0, 60_000);
  const preset = applyScale(PRESET, getPreset(PRESET)!.seedsScale);
  const cell = preset.scenarios.find((s) => s.id === 'rate-1000')!;
  const base = preset.poolConfigs.find(
    (p) => p.config.instanceCount === 1 && p.config.params.maxConns === 5,
  )!;
  const sides = [
    { label: 'isolated', environment: { ...base.config.environment } },
    { label: 'shared', environment: { ...base.config.environment, cpuIsolation: 'off' as const } },
  ];
  const configs: Array<{ id: string }> = [];
  for (const side of sides)
    configs.push(
      await w.db.poolConfig.create({
        data: {
          teamId: w.ids.teamId,
          targetId: w.ids.targetId,
          name: `${base.name} · ${side.label}`,
          strategy: base.config.strategy,
          params: toJson.poolParams(base.config.params),
          instanceCount: 1,
          environment: toJson.poolEnvironment(side.environment),
        },
      }),
    );
  const sc = await w.db.scenario.create({
    data: { teamId: w.ids.teamId, name: cell.label, ...scenarioRowData(cell.scenario) },
  });
  const t0 = Date.now();
  const { runIds } = await w.launch(
    configs.map((c) => c.id),
    [sc.id],
    REPEATS,
  );
  await waitFor(
    'every run ended',
    async () =>
      (await w.db.run.count({
        where: {
          id: { in: runIds },
          status: { in: ['succeeded', 'failed', 'canceled', 'timed_out', 'aborted_system'] },
        },
      })) === runIds.length,
    60 * 60_000,
  );
  const runs = (await w.db.run.findMany({ where: { id: { in: runIds } } })).map(parseRun);
  const rows: string[] = [];
  for (const [i, side] of sides.entries()) {
    const mine = runs.filter((r) => r.poolConfigId === configs[i]!.id && r.status === 'succeeded');
    const p99 = mine.map((r) => r.summary!.latency!.p99);
    const rps = mine.map((r) => r.summary!.rps ?? 0);
    const outside = mine.map((r) => r.environment?.disturbance?.outsideCpuPercent ?? 0);
    const iso = mine[0]?.environment?.cpuIsolation;
    const how =
      iso?.mode === 'pinned'
        ? `k6 CPU ${iso.generatorCpus}, target CPU ${iso.targetCpus}`
        : iso?.mode;
    rows.push(
      `| ${side.label} (${how}) | ${mine.length} of ${REPEATS} | ${median(p99).toFixed(1)} | ${quantile(p99, 0.25).toFixed(1)} … ${quantile(p99, 0.75).toFixed(1)} | **${(100 * spread(p99)).toFixed(1)} %** | ${median(rps).toFixed(1)} | ${(100 * spread(rps)).toFixed(2)} % | ${median(outside).toFixed(0)} % |`,
    );
    console.log(rows.at(-1));
  }
  const section = [
    '## CPU isolation: spread of p99 with and without',
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model}. Command: \`npx tsx apps/worker/bench/isolation.ts\` (from \`make bench\`), ${new Date().toISOString().slice(0, 16)}Z, ${((Date.now() - t0) / 60_000).toFixed(1)} min.`,
    `One seed-002 cell through the real worker: ${cell.label} (the seed's 1000 req/s at scale ${preset.scale}), ${base.name} (GOMAXPROCS 1), ${REPEATS} repeats per side interleaved in one experiment; "isolated" runs k6 and the target on separate CPUs (the default), "shared" turns it off (CPU isolation: Off). Spread = IQR / median over the repeats; disturbance = CPU used outside the run, % of one core (median).`,
    '',
    '| side | runs | p99 median ms | p99 IQR ms | p99 spread | req/s median | req/s spread | disturbance |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(section);
  execFileSync(
    process.execPath,
    [new URL('../../../scripts/bench-section.mjs', import.meta.url).pathname, 'cpu-isolation'],
    { input: section, stdio: ['pipe', 'inherit', 'inherit'] },
  );
} finally {
  await w.dispose();
}
