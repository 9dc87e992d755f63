// Chart rendering of the run page in real Chromium: a 15-minute run against a 1-minute run (A/B in
// one process, alternated), measured with the browser's own Long Tasks API. Needs the stack that
// `make bench` starts (web on :3000). Writes the "web-render" section of docs/benchmarks.md.
import { execSync } from 'node:child_process';
import { cpus } from 'node:os';
import { chromium } from '@playwright/test';
import {
  createDb,
  DEMO_EMAIL,
  DEMO_PASSWORD,
  DEMO_TEAM_SLUG,
  LAB_TARGET_NAME,
} from '@poolbench/db';
import {
  insertSyntheticRun,
  syntheticExperiment,
} from '~/server/services/compare/testing/synthetic-runs';

const BASE = process.env.POOLBENCH_URL ?? 'http://localhost:3000';
const ROUNDS = 5;
const db = createDb({ applicationName: 'poolbench-render-bench' });

const team = await db.team.findUniqueOrThrow({ where: { slug: DEMO_TEAM_SLUG } });
const target = await db.target.findFirstOrThrow({
  where: { teamId: team.id, name: LAB_TARGET_NAME },
});
const scenario = await db.scenario.findFirstOrThrow({
  where: { teamId: team.id },
  select: { id: true, name: true },
});
const exp = await syntheticExperiment(db, team.id, target.id, scenario.id, ['render-bench'], 1);
const pc = exp.poolConfigs[0]!;
const make = (seconds: number, seed: number) =>
  insertSyntheticRun(db, {
    teamId: team.id,
    experimentId: exp.experimentId,
    targetId: target.id,
    scenarioId: scenario.id,
    poolConfigId: pc.id,
    poolConfigName: pc.name,
    scenarioName: scenario.name,
    repeatIndex: seed,
    seconds,
    latencyMs: 12,
    rps: 400,
    errorRate: 0.001,
    seed,
  });
const runs = { '15 min (900 s)': await make(900, 1), '1 min (60 s)': await make(60, 2) };
const COMPARE_LABEL = 'compare view: the two runs';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
type Sample = { renderMs: number; longestTaskMs: number; blockingMs: number; points: number };
const results: Record<string, Sample[]> = {};
try {
  const context = await browser.newContext({
    baseURL: BASE,
    viewport: { width: 1440, height: 900 },
  });
  const res = await context.request.post('/api/auth/sign-in/email', {
    data: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    headers: { origin: BASE },
  });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
  await context.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  // Rendered = every chart has drawn its lines.
  const runDrawn = () =>
    document.querySelectorAll('.recharts-surface').length >= 9 &&
    document.querySelectorAll('.recharts-line-curve').length >= 9;
  const compareDrawn = () => {
    const frames = [...document.querySelectorAll('[data-testid="compare-charts"] > *')];
    return (
      frames.length > 0 &&
      frames.every((f) => f.querySelector('.recharts-surface')) &&
      !!document.querySelector('[data-testid="chart-spectrum"] .recharts-line-curve')
    );
  };
  const pages: Array<[string, string, () => boolean]> = [
    ...Object.entries(runs).map(([label, runId]): [string, string, () => boolean] => [
      label,
      `/runs/${runId}`,
      runDrawn,
    ]),
    [COMPARE_LABEL, `/compare?items=r.${Object.values(runs).join(',r.')}`, compareDrawn],
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, url, drawn] of pages) {
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto(url);
      await page.waitForFunction(drawn, null, { timeout: 60_000 });
      const renderMs = Date.now() - t0;
      await page.waitForTimeout(500);
      const tasks = await page.evaluate(
        () => (window as unknown as { __longTasks: number[] }).__longTasks,
      );
      const points = await page.evaluate(() => {
        const d = document.querySelector('.recharts-line-curve')?.getAttribute('d') ?? '';
        return (d.match(/[LM]/g) ?? []).length;
      });
      (results[label] ??= []).push({
        renderMs,
        longestTaskMs: Math.max(0, ...tasks),
        blockingMs: tasks.reduce((s, t) => s + Math.max(0, t - 50), 0),
        points,
      });
      await page.close();
    }
  }
} finally {
  await browser.close();
  await db.experiment.delete({ where: { id: exp.experimentId } });
  await db.poolConfig.delete({ where: { id: pc.id } });
  await db.$disconnect();
}

const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const rows = Object.entries(results).map(
  ([label, s]) =>
    `| ${label} | ${med(s.map((x) => x.renderMs)).toFixed(0)} | ${med(s.map((x) => x.longestTaskMs)).toFixed(0)} (max ${Math.max(...s.map((x) => x.longestTaskMs)).toFixed(0)}) | ${med(s.map((x) => x.blockingMs)).toFixed(0)} | ${s[0]!.points} |`,
);
const long = results['15 min (900 s)']!;
const short = results['1 min (60 s)']!;
const frozen = Math.max(...long.map((x) => x.longestTaskMs));
const added = med(long.map((x) => x.longestTaskMs)) - med(short.map((x) => x.longestTaskMs));
const section = [
  '## Web: run page charts in Chromium (15-minute vs 1-minute run), and the compare view',
  '',
  `Machine: ${cpus().length} × ${cpus()[0]?.model}; Debian Chromium headless. Command: \`npx tsx apps/web/bench/render.ts\` (from \`make bench\`, against the running stack), ${new Date().toISOString().slice(0, 16)}Z.`,
  `Data: synthetic succeeded runs (real encoded histograms, resource samples) of 900 s and 60 s, ${ROUNDS} rounds alternating the two; navigation to every chart drawn, long tasks from the browser's Long Tasks API.`,
  '',
  '| page | navigation → charts drawn, median ms | longest main-thread task, median ms | total blocking time, median ms | points per line |',
  '|---|---|---|---|---|',
  ...rows,
  '',
  `The server downsamples long runs to at most RUN_CHART_MAX_POINTS (300) min/max points per series (spikes stay visible), so a 15-minute run draws at most that many points per line. The run page loads Recharts after the page and mounts its charts (nine, ten with an upstream pool) one per animation frame, each frame rendering only the chart whose turn it is, so no single task draws them all (before that split, on the same machine: longest task 613 ms for the 15-minute run, 467 ms for the 1-minute one). Longest single task for the 15-minute run over all rounds: ${frozen.toFixed(0)} ms; the run's length adds ${added.toFixed(0)} ms to the median longest task of a 1-minute run (${frozen < 200 ? 'no stall a user would notice' : 'above the 200 ms a user notices as a stall in at least one round on this machine at this load'}).`,
].join('\n');
console.log(section);
execSync(
  `node ${new URL('../../../scripts/bench-section.mjs', import.meta.url).pathname} web-render`,
  { input: section, stdio: ['pipe', 'inherit', 'inherit'] },
);
