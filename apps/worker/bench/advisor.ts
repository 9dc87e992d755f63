import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { enqueueOrDefer, launchAdvisor } from '@poolbench/runs';
import { ddcMinServers } from '@poolbench/stats';
import { parseExperiment } from '@poolbench/db';
import { createWorld, waitFor } from '../test/harness';

/**
 * The advisor against queueing theory (make bench, section advisor-ground-truth): on the managed
 * Go lab target, `GET /work?ms=S` holds one pool connection S ms, and k6's constant-arrival-rate
 * sends a request every 1/λ s: a D/D/c queue, whose smallest pool without a growing queue is the
 * smallest c with λS/c < 1 (docs/advisor-model.md). For each (λ, S, SLO p99 ≤ 2S) the real advisor
 * (real worker, k6, lab target, Postgres) must recommend that c within ±1, inside its budget.
 * BENCH_ADVISOR_CASES=50:50,20:170 picks cases (λ:S); BENCH_ADVISOR_SECONDS the run length.
 */
const CASES = (process.env.BENCH_ADVISOR_CASES ?? '50:50,20:170,100:45').split(',').map((c) => {
  const [rate, ms] = c.split(':').map(Number);
  return { rate: rate!, ms: ms! };
});
const SECONDS = Number(process.env.BENCH_ADVISOR_SECONDS ?? 8);
const BUDGET = Number(process.env.BENCH_ADVISOR_BUDGET ?? 24);
const RANGE = { min: 1, max: 16 };

const w = await createWorld('benchadvisor');
try {
  w.startWorker();
  await waitFor('worker registered', async () => (await w.db.worker.count()) > 0, 60_000);
  const rows: string[] = [];
  let misses = 0;
  for (const c of CASES) {
    const truth = ddcMinServers(c.rate, c.ms).servers;
    const pc = await w.poolConfig(`advisor base ${c.rate}/${c.ms}`, 'prewarm', {
      maxConns: 8,
      acquireTimeoutMs: 2000,
    });
    const sc = await w.scenario(`advisor ${c.rate} req/s · GET /work?ms=${c.ms}`, {
      template: 'constant-arrival-rate',
      params: {
        ratePerSec: c.rate,
        durationMs: SECONDS * 1000,
        preAllocatedVUs: Math.ceil((c.rate * (2 * c.ms + 100)) / 1000) + 5,
        maxVUs: Math.ceil((c.rate * 2200) / 1000) + 10,
      },
      requests: [{ path: '/work', query: { ms: c.ms } }],
      readyPath: '/ready',
    });
    const t0 = Date.now();
    const launched = await launchAdvisor(w.db, {
      teamId: w.ids.teamId,
      targetId: w.ids.targetId,
      scenarioId: sc.id,
      basePoolConfigId: pc.id,
      min: RANGE.min,
      max: RANGE.max,
      objective: { kind: 'slo', p99Ms: 2 * c.ms, errorRate: 0.001 },
      budgetRuns: BUDGET,
    });
    await enqueueOrDefer(w.queue, launched);
    const state = await waitFor(
      `advisor ${c.rate}/${c.ms} answered`,
      async () => {
        const e = parseExperiment(
          await w.db.experiment.findUniqueOrThrow({
            where: { id: launched.experimentId },
            select: { advisorState: true },
          }),
        );
        return e.advisorState && e.advisorState.status !== 'running' ? e.advisorState : null;
      },
      40 * 60_000,
    );
    const minutes = (Date.now() - t0) / 60_000;
    const ok = state.recommended !== null && Math.abs(state.recommended - truth) <= 1;
    if (!ok) misses++;
    rows.push(
      `| ${c.rate} | ${c.ms} | ${2 * c.ms} | ${((c.rate * c.ms) / 1000).toFixed(2)} | ${truth} | ${state.recommended ?? `none (${state.status})`} | ${ok ? 'yes' : '**no**'} | ${state.runsUsed} of ${BUDGET} | ${minutes.toFixed(1)} |`,
    );
    console.log(rows.at(-1));
    console.log(`  ${state.summary}`);
  }
  const section = [
    '## Advisor against queueing theory',
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model}. Command: \`npx tsx apps/worker/bench/advisor.ts\` (from \`make bench\`), ${new Date().toISOString().slice(0, 16)}Z.`,
    `The real advisor (worker, k6, managed Go lab target on Postgres), prewarm pool, max pool size searched over ${RANGE.min}..${RANGE.max}, ${SECONDS} s constant-arrival-rate runs of \`GET /work?ms=S\` (each holds one connection S ms), SLO p99 ≤ 2·S and errors ≤ 0.1 %, budget ${BUDGET} runs, 3 runs per setting and step. Ground truth: D/D/c, the smallest c with λ·S/c < 1 (docs/advisor-model.md says why D/D/c and not M/D/c).`,
    '',
    '| λ req/s | S ms | SLO p99 ms | λ·S | D/D/c answer | advisor | within ±1 | runs used | minutes |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    misses === 0
      ? `Every case within ±1 of queueing theory.`
      : `${misses} case(s) outside ±1: see the advisor's summary above each row in the bench log.`,
  ].join('\n');
  console.log(section);
  execFileSync(
    process.execPath,
    [
      new URL('../../../scripts/bench-section.mjs', import.meta.url).pathname,
      'advisor-ground-truth',
    ],
    { input: section, stdio: ['pipe', 'inherit', 'inherit'] },
  );
  if (misses > 0) process.exitCode = 1;
} finally {
  await w.dispose();
}
