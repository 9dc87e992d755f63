import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { createDb, parseRun, type RunStatus } from '@poolbench/db';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import { isMeasuredRunStatus, TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { compareRunGroups, median, type RunSummary } from '@poolbench/stats';
import { loadEnv } from '../env';
import { DemoError, launchDemoExperiment } from './demo-experiment';
import { saveResults } from './results-file';

/**
 * `make demo`: the seed 004 preset (open/close per request vs one shared pool, ab -c 100, scaled
 * down) as a real experiment through the queue and the running worker, then a comparison from
 * what Postgres stored. Writes the table to .data/results (docs/benchmarks.md with WRITE_DOCS=1).
 */
const REPEATS = 3;
const env = loadEnv();
const db = createDb({ url: env.DATABASE_URL, applicationName: 'poolbench-demo' });
const redis = producerConnection(env.REDIS_URL);
const queue = createRunQueue(redis, env.QUEUE_PREFIX);
const fail = (msg: string): never => {
  console.error(`demo: ${msg}`);
  process.exit(1);
};

try {
  const launched = await launchDemoExperiment(db, queue, {
    repeats: REPEATS,
    name: (title) => `make demo: ${title}`,
  }).catch((err: unknown) => fail(err instanceof DemoError ? err.message : String(err)));
  const { configs, scenario } = launched;
  console.log(
    `demo: experiment ${launched.experimentId}: ${configs.length} configs x "${scenario.name}" x ${REPEATS} repeats = ${launched.runIds.length} runs, interleaved`,
  );

  let last = '';
  for (;;) {
    const runs = await db.run.findMany({
      where: { experimentId: launched.experimentId },
      select: { status: true },
    });
    const count = (s: RunStatus) => runs.filter((r) => r.status === s).length;
    const done = runs.filter((r) =>
      (TERMINAL_RUN_STATUSES as readonly string[]).includes(r.status),
    ).length;
    const line = `demo: ${done}/${runs.length} done (running ${count('running') + count('preparing')}, queued ${count('queued')}, failed ${count('failed') + count('aborted_system') + count('timed_out')})`;
    if (line !== last) console.log(line);
    last = line;
    if (done === runs.length) break;
    await new Promise((r) => setTimeout(r, 1000));
  }

  const runs = (
    await db.run.findMany({
      where: { experimentId: launched.experimentId },
      orderBy: { sequence: 'asc' },
    })
  ).map(parseRun);
  const groups = configs.map((c) => ({
    label: c.name,
    runs: runs.filter((r) => r.poolConfigId === c.id),
  }));
  const fmt = (v: number | null | undefined, d = 1) =>
    v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(d);
  const med = (xs: (number | null | undefined)[]) => {
    const v = xs.filter((x): x is number => typeof x === 'number');
    return v.length ? median(v) : null;
  };
  const lines: string[] = [];
  lines.push(
    '| pool config | runs ok | req/s (median) | p50 ms | p95 ms | p99 ms | max ms | errors % | target CPU % (mean) | DB conns peak |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const g of groups) {
    const s = g.runs.map((r) => r.summary).filter((x): x is RunSummary => !!x);
    lines.push(
      `| ${g.label} | ${g.runs.filter((r) => isMeasuredRunStatus(r.status)).length}/${g.runs.length} | ${fmt(med(s.map((x) => x.rps)))} | ${fmt(med(s.map((x) => x.latency?.p50)), 2)} | ${fmt(med(s.map((x) => x.latency?.p95)), 2)} | ${fmt(med(s.map((x) => x.latency?.p99)), 2)} | ${fmt(med(s.map((x) => x.latency?.max)), 1)} | ${fmt(med(s.map((x) => (x.errorRate ?? 0) * 100)), 2)} | ${fmt(med(s.map((x) => x.resources?.cpuMeanPercent)))} | ${fmt(med(s.map((x) => x.resources?.dbConnectionsPeak)), 0)} |`,
    );
  }
  const cmp = compareRunGroups(
    { label: groups[0]!.label, summaries: groups[0]!.runs.map((r) => r.summary) },
    { label: groups[1]!.label, summaries: groups[1]!.runs.map((r) => r.summary) },
  );
  lines.push(
    '',
    `Change of **${cmp.candidate}** against **${cmp.baseline}** (${REPEATS} runs each; Hodges–Lehmann 95 % interval, Mann–Whitney p adjusted with Benjamini–Hochberg):`,
    '',
  );
  lines.push('| metric | change | 95 % interval | p | verdict |', '|---|---|---|---|---|');
  for (const m of cmp.metrics.filter((x) =>
    ['rps', 'p50Ms', 'p95Ms', 'p99Ms', 'errorRate'].includes(x.name),
  )) {
    const c = m.changePercent;
    lines.push(
      `| ${m.def.label} | ${c ? `${c.estimate >= 0 ? '+' : ''}${c.estimate.toFixed(1)} %` : '–'} | ${c ? `[${c.lower.toFixed(1)} %, ${c.upper.toFixed(1)} %]` : '–'} | ${m.pValue === null ? '–' : m.pValue.toFixed(3)} | ${m.verdict}${m.insufficient ? ' (too few runs for a verdict)' : ''} |`,
    );
  }
  const table = lines.join('\n');
  console.log(`\n${table}\n`);
  const rpsA = med(groups[0]!.runs.map((r) => r.summary?.rps));
  const rpsB = med(groups[1]!.runs.map((r) => r.summary?.rps));
  console.log(
    rpsA !== null && rpsB !== null && rpsB > rpsA
      ? `demo: the shared pool is ahead: ${fmt(rpsB)} vs ${fmt(rpsA)} req/s (median)`
      : 'demo: the shared pool is NOT ahead in this run',
  );

  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`;
  const section = [
    '## make demo: seed 004 through the queue',
    '',
    `Machine: ${machine}. Command: \`make demo\` (scenario "${scenario.name}", ${REPEATS} interleaved repeats per config, executed by the running worker; numbers read back from Postgres). Date: ${new Date().toISOString().slice(0, 10)}.`,
    '',
    table,
    '',
    'With 3 runs per side the exact Mann–Whitney test cannot reach p < 0.05 (minimum two-sided p = 0.1), so verdicts stay "inconclusive" by design even when every run of one config beats every run of the other; the intervals still show the size of the difference. Use 4 or more repeats for a verdict.',
  ].join('\n');
  saveResults('demo-seed-004', section, () =>
    execFileSync(
      process.execPath,
      [new URL('../../../../scripts/bench-section.mjs', import.meta.url).pathname, 'demo-seed-004'],
      { input: section, stdio: ['pipe', 'inherit', 'inherit'] },
    ),
  );
} finally {
  await queue.close();
  redis.disconnect();
  await db.$disconnect();
}
