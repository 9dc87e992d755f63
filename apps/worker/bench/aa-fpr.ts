import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { parseNoiseFloor, parseRun } from '@poolbench/db';
import {
  calibrationSides,
  comparisonNoiseFloors,
  enqueueOrDefer,
  launchCalibration,
  type StoredNoiseFloor,
} from '@poolbench/runs';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { compareRunGroups, median, wilsonInterval } from '@poolbench/stats';
import { createWorld, waitFor } from '../test/harness';

/**
 * The compare view's false-positive rate on real A/A comparisons (make bench, section aa-fpr):
 * COMPARISONS A/A calibrations through the product (launchCalibration, the real worker, k6 and
 * the lab target), each one pool config against itself with RUNS_PER_SIDE runs per side in
 * counterbalanced pairs (A B, B A, …). Each is compared A against B exactly as the compare view
 * compares two cells (compareRunGroups: every tested metric, Benjamini–Hochberg across them, the
 * default floors); a comparison is a false positive when any metric is called better or worse.
 * The same count with the noise floor the previous calibration stored (out of sample, as a team
 * would use it).
 * BENCH_AA_COMPARISONS (default 40) and BENCH_AA_RUNS_PER_SIDE (default 5) set the size.
 */
const COMPARISONS = Number(process.env.BENCH_AA_COMPARISONS ?? 40);
const RUNS_PER_SIDE = Number(process.env.BENCH_AA_RUNS_PER_SIDE ?? 5);

const w = await createWorld('benchaafpr');
try {
  w.startWorker();
  await waitFor('worker registered', async () => (await w.db.worker.count()) > 0, 60_000);
  const scenario = await w.scenario('aa 200/s', {
    template: 'constant-arrival-rate',
    params: { ratePerSec: 200, durationMs: 3000, preAllocatedVUs: 20, maxVUs: 40 },
    requests: [{ method: 'GET', path: '/work', query: { ms: 2 } }],
  });
  const config = await w.poolConfig('fixed 10', 'fixed', { maxConns: 10 });
  const t0 = Date.now();
  const experimentIds: string[] = [];
  for (let i = 0; i < COMPARISONS; i++) {
    const l = await launchCalibration(w.db, {
      teamId: w.ids.teamId,
      targetId: w.ids.targetId,
      poolConfigId: config.id,
      scenarioId: scenario.id,
      runsPerSide: RUNS_PER_SIDE,
      name: `A/A ${i + 1}`,
    });
    await enqueueOrDefer(w.queue, l);
    experimentIds.push(l.experimentId);
  }
  const total = COMPARISONS * 2 * RUNS_PER_SIDE;
  let reported = -1;
  await waitFor(
    'every run ended',
    async () => {
      const ended = await w.db.run.count({
        where: { experimentId: { in: experimentIds }, status: { in: [...TERMINAL_RUN_STATUSES] } },
      });
      if (Math.floor(ended / 50) !== Math.floor(reported / 50))
        console.log(
          `${ended} of ${total} runs ended, ${((Date.now() - t0) / 60_000).toFixed(1)} min`,
        );
      reported = ended;
      return ended === total;
    },
    4 * 60 * 60_000,
  );
  await waitFor(
    'every floor stored',
    async () =>
      (await w.db.noiseFloor.count({ where: { experimentId: { in: experimentIds } } })) ===
      COMPARISONS,
    60_000,
  );
  const floors: StoredNoiseFloor[] = (
    await w.db.noiseFloor.findMany({ where: { experimentId: { in: experimentIds } } })
  ).map(parseNoiseFloor);
  const rows: Array<{ positives: string[]; positivesFloored: string[]; failed: number }> = [];
  for (const [i, id] of experimentIds.entries()) {
    const { order, runs } = await w.db.experiment.findUniqueOrThrow({
      where: { id },
      select: { order: true, runs: true },
    });
    const { a, b } = calibrationSides(runs.map(parseRun), order);
    const called = (noiseFloors = {}) =>
      compareRunGroups(
        { label: 'A', summaries: a },
        { label: 'B', summaries: b },
        {},
        { noiseFloors },
      )
        .metrics.filter((m) => m.verdict === 'better' || m.verdict === 'worse')
        .map((m) => `${m.name} ${m.verdict}`);
    // the floor the previous calibration measured: out of sample for this one
    const previous =
      i > 0 ? floors.find((f) => f.experimentId === experimentIds[i - 1]) : undefined;
    rows.push({
      positives: called(),
      positivesFloored: previous ? called(comparisonNoiseFloors([previous])) : called(),
      failed: runs.filter((r) => r.status !== 'succeeded').length,
    });
  }
  const fp = rows.filter((r) => r.positives.length > 0);
  const fpFloored = rows.filter((r) => r.positivesFloored.length > 0);
  const byMetric = new Map<string, number>();
  for (const r of fp) for (const p of r.positives) byMetric.set(p, (byMetric.get(p) ?? 0) + 1);
  const floorOf = (key: string) =>
    floors.map((f) => f.metrics.find((m) => m.key === key)?.value).filter((v) => v !== undefined);
  // with 40 comparisons the rate is known only so well: its 95 % Wilson interval says how well
  const pct = (k: number, n: number) => {
    const w = wilsonInterval(k, n);
    return `${k} of ${n} (${((100 * k) / n).toFixed(1)} %; 95 % interval ${(100 * w.lower).toFixed(1)} … ${(100 * w.upper).toFixed(1)} %)`;
  };
  const section = [
    '## A/A: the false-positive rate of the compare view on real runs',
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model}. Command: \`npx tsx apps/worker/bench/aa-fpr.ts\` (from \`make bench\`), ${new Date().toISOString().slice(0, 16)}Z, ${((Date.now() - t0) / 60_000).toFixed(1)} min.`,
    `${COMPARISONS} A/A calibrations through the real worker, k6 and the lab target (pool config "fixed 10" against itself; constant arrival rate 200 req/s for 3 s on GET /work?ms=2), ${RUNS_PER_SIDE} runs per side in counterbalanced pairs; ${rows.reduce((s, r) => s + r.failed, 0)} of ${total} runs did not succeed. Each is compared A against B as the compare view compares two cells: every tested metric, p adjusted with Holm across the primary metrics and Benjamini–Hochberg across the rest, the default floors. A false positive is a comparison with any metric called better or worse.`,
    '',
    '| floors | false positives (any metric better/worse) |',
    '|---|---|',
    `| default (5 %, absolute for error rate, connection set-up, pool wait) | **${pct(fp.length, rows.length)}** |`,
    `| the previous calibration's noise floor (out of sample) | **${pct(fpFloored.length, rows.length)}** |`,
    '',
    byMetric.size
      ? `Metrics called with the default floors: ${[...byMetric].map(([k, n]) => `${k} ×${n}`).join(', ')}.`
      : 'No metric was called better or worse with the default floors.',
    `Noise floors measured (median over the ${floors.length} calibrations): ${[
      'p50Ms',
      'p95Ms',
      'p99Ms',
      'rps',
      'cpuMeanPercent',
    ]
      .map((k) => {
        const v = floorOf(k);
        return v.length ? `${k} ±${median(v).toFixed(1)} %` : null;
      })
      .filter(Boolean)
      .join(', ')}.`,
  ].join('\n');
  console.log(section);
  execFileSync(
    process.execPath,
    [new URL('../../../scripts/bench-section.mjs', import.meta.url).pathname, 'aa-fpr'],
    { input: section, stdio: ['pipe', 'inherit', 'inherit'] },
  );
} finally {
  await w.dispose();
}
