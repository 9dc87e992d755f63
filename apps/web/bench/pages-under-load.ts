// PoolBench's own pages under load (`make bench`, after `make up`): PoolBench's k6 build
// (packages/k6/bin/k6) against the running stack, each endpoint alone at a constant arrival rate
// for 20 s, stepping the rate 50, 100, 200, 400 … until it no longer holds (p95 < 100 ms, no
// failed request, no dropped iteration). A/B in one run: the stack's web server (cache on) and a
// second `next start` of the same build on WEB_B_PORT with POOLBENCH_PAGE_CACHE=off, stepped
// alternately, so load from elsewhere on the machine hits both alike. Writes the
// `web-pages-under-load` section of docs/benchmarks.md. Last, a cold crowd: new share links taken
// at 200 req/s from their first request, on both sides.
// Fixture: a "bench: pages under load" team the demo user owns, with 2 pool configs x 3 repeats
// of 15-minute runs (900 RunSecond rows each, real encoded HDR histograms, written by the same
// writer as the server-time benchmark) and an experiment share link; reused when it exists.
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { webProcesses } from '../web-processes.mjs';
import { FAST_PATH_TIMING } from '../src/server/services/cache/page-bytes-response';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { cpuReferenceLine, cpuReferenceMs } from './machine-reference';
import { join } from 'node:path';
import { createDb, DEMO_EMAIL, LAB_TARGET_NAME, scenarioRowData } from '@poolbench/db';
import { parseScenario } from '@poolbench/scenarios';
import { compareQuery } from '@poolbench/contracts/links';
import { stackSession } from './stack-session';
import {
  insertSyntheticRun,
  syntheticExperiment,
} from '~/server/services/compare/testing/synthetic-runs';

const A = (process.env.POOLBENCH_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const B_PORT = Number(process.env.WEB_B_PORT ?? 3001);
const B = `http://localhost:${B_PORT}`;
const SECONDS = 900;
const REPEATS = 3;
const STEP_S = Number(process.env.BENCH_STEP_SECONDS ?? 20);
const RATES = [50, 100, 200, 400, 800, 1600];
const ROOT = join(import.meta.dirname, '..', '..', '..');
const K6 = join(ROOT, 'packages/k6/bin/k6');
const work = mkdtempSync(join(tmpdir(), 'poolbench-pages-bench-'));
const TEAM_SLUG = 'bench-pages-under-load';
const SEQUENTIAL = 21;
const COLD_RATE = 200;
const COLD_TRIALS = 3;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const STEADY = parseScenario({
  template: 'constant-arrival-rate',
  params: { ratePerSec: 400, durationMs: SECONDS * 1000, preAllocatedVUs: 20, maxVUs: 100 },
  requests: [{ method: 'GET', path: '/health' }],
});

async function fixture() {
  const db = createDb({ url: process.env.DATABASE_URL!, applicationName: 'poolbench-pages-bench' });
  try {
    const user = await db.user.findUniqueOrThrow({
      where: { email: DEMO_EMAIL },
      select: { id: true },
    });
    const team = await db.team.upsert({
      where: { slug: TEAM_SLUG },
      create: { name: 'bench: pages under load', slug: TEAM_SLUG },
      update: {},
    });
    await db.membership.upsert({
      where: { teamId_userId: { teamId: team.id, userId: user.id } },
      create: { teamId: team.id, userId: user.id, role: 'owner' },
      update: {},
    });
    const done = await db.experiment.findFirst({
      where: { teamId: team.id, name: 'bench: pages under load' },
      select: { id: true, runs: { select: { id: true } } },
    });
    if (done && done.runs.length === 2 * REPEATS)
      return {
        teamId: team.id,
        experimentId: done.id,
        runIds: done.runs.map((r) => r.id),
        generatedS: 0,
      };
    const target = await db.target.create({
      data: {
        teamId: team.id,
        name: LAB_TARGET_NAME,
        kind: 'managed',
        baseUrls: [],
        requestDefaults: { method: 'GET', path: '/health' },
        secretHeaderNames: [],
        readinessPath: '/ready',
      },
    });
    const scenario = await db.scenario.create({
      data: { teamId: team.id, name: 'steady 400 req/s', ...scenarioRowData(STEADY) },
    });
    const exp = await syntheticExperiment(
      db,
      team.id,
      target.id,
      scenario.id,
      ['lazy', 'prewarm'],
      REPEATS,
    );
    await db.experiment.update({
      where: { id: exp.experimentId },
      data: { name: 'bench: pages under load' },
    });
    const t0 = performance.now();
    const runIds: string[] = [];
    for (let rep = 0; rep < REPEATS; rep++) {
      for (const [i, pc] of exp.poolConfigs.entries()) {
        runIds.push(
          await insertSyntheticRun(db, {
            teamId: team.id,
            experimentId: exp.experimentId,
            targetId: target.id,
            scenarioId: scenario.id,
            poolConfigId: pc.id,
            poolConfigName: pc.name,
            scenarioName: 'steady 400 req/s',
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
    return {
      teamId: team.id,
      experimentId: exp.experimentId,
      runIds,
      generatedS: (performance.now() - t0) / 1000,
    };
  } finally {
    await db.$disconnect();
  }
}

/**
 * Signs the demo user in on `base`, makes the bench team active for that session. Both servers are
 * the same app with the same BETTER_AUTH_URL, so requests carry that origin (A's) to pass its
 * Origin checks on B as well.
 */
const K6_SCRIPT = `
import http from 'k6/http';
import { Rate } from 'k6/metrics';
const memory = new Rate('from_memory');
export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['med', 'max', 'p(95)', 'p(99)'],
  scenarios: { load: { executor: 'constant-arrival-rate', rate: Number(__ENV.RATE), timeUnit: '1s', duration: __ENV.DURATION,
    preAllocatedVUs: Math.min(600, Math.max(10, Number(__ENV.RATE))), maxVUs: Math.min(1200, Math.max(50, Number(__ENV.RATE) * 2)) } },
};
const params = { headers: Object.assign({ 'Accept-Encoding': 'gzip' }, __ENV.COOKIE ? { cookie: __ENV.COOKIE } : {}), timeout: '10s' };
export default function () {
  const r = http.get(__ENV.URL, params);
  memory.add(r.headers['Server-Timing'] === ${JSON.stringify(FAST_PATH_TIMING)});
}
export function handleSummary(d) { return { [__ENV.OUT]: JSON.stringify(d) }; }
`;

interface Step {
  rate: number;
  /** the share of answers that server.mjs's fast path gave (`Server-Timing: memory`) */
  fromMemory: number;
  p95: number;
  p99: number;
  max: number;
  failed: number;
  requests: number;
  dropped: number;
  holds: boolean;
}

/** the k6 of the step under way, stopped with the bench */
let k6Child: ChildProcess | null = null;

async function k6(url: string, cookie: string, rate: number): Promise<Step> {
  const out = join(work, `summary-${Date.now()}.json`);
  writeFileSync(join(work, 'load.js'), K6_SCRIPT);
  const child = spawn(
    K6,
    [
      'run',
      '--quiet',
      '--no-usage-report',
      '--address',
      '',
      '--include-system-env-vars=false',
      '-e',
      `URL=${url}`,
      '-e',
      `COOKIE=${cookie}`,
      '-e',
      `RATE=${rate}`,
      '-e',
      `DURATION=${STEP_S}s`,
      '-e',
      `OUT=${out}`,
      join(work, 'load.js'),
    ],
    { stdio: 'ignore' },
  );
  k6Child = child;
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`k6 exited with ${code ?? signal}`)),
    );
  }).finally(() => {
    k6Child = null;
  });
  const m = (
    JSON.parse(readFileSync(out, 'utf8')) as {
      metrics: Record<string, { values: Record<string, number> }>;
    }
  ).metrics;
  const p95 = m.http_req_duration?.values['p(95)'] ?? Infinity;
  const requests = m.http_reqs?.values.count ?? 0;
  const failed = Math.round((m.http_req_failed?.values.rate ?? 1) * requests);
  const dropped = m.dropped_iterations?.values.count ?? 0;
  return {
    rate,
    fromMemory: m.from_memory?.values.rate ?? 0,
    p95,
    p99: m.http_req_duration?.values['p(99)'] ?? Infinity,
    max: m.http_req_duration?.values.max ?? Infinity,
    failed,
    requests,
    dropped,
    holds: p95 < 100 && failed === 0 && dropped === 0 && requests > 0,
  };
}

/** fetch, once more on a socket error: a keep-alive connection the server closed while k6 ran. */
async function get(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

/** One /api/health request's time on a server, in ms (its body read). */
async function healthMs(base: string): Promise<number> {
  const t = performance.now();
  const r = await get(`${base}/api/health`);
  await r.arrayBuffer();
  return performance.now() - t;
}

/**
 * Waits until a server has worked off what a failed step left queued: k6 gives up on a request
 * after 10 s, the server does not, so an overloaded side keeps both cores busy well after its step
 * and would slow the other side's next step. Idle is three health answers in a row within 3x (at
 * least +20 ms) of its quiet time, measured before the steps. Returns the wait in seconds.
 */
async function settle(base: string, quietMs: number): Promise<number> {
  const start = performance.now();
  const limit = Math.max(quietMs * 3, quietMs + 20);
  let inRow = 0;
  while (inRow < 3 && performance.now() - start < 180_000) {
    inRow = (await healthMs(base)) <= limit ? inRow + 1 : 0;
    if (inRow < 3) await new Promise((r) => setTimeout(r, 250));
  }
  return (performance.now() - start) / 1000;
}

async function waitHealthy(base: string) {
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`${base}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${base} did not become healthy`);
}

let serverB: ChildProcess | null = null;
const stopServerB = () => {
  if (!serverB?.pid) return;
  try {
    process.kill(-serverB.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
// A bench stopped from outside (SIGTERM, Ctrl-C) takes its cache-off server and its k6 with it:
// k6 runs while the bench awaits it, so the bench hears the signal at once.
for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
] as const)
  process.once(signal, () => {
    k6Child?.kill('SIGTERM');
    stopServerB();
    process.exit(code);
  });
try {
  await waitHealthy(A);
  const f = await fixture();
  // B: the same build, cache off; its own process group so it can be stopped with what it started
  const logB = openSync(join(work, 'web-b.log'), 'a');
  serverB = spawn('npx', ['next', 'start', '-p', String(B_PORT)], {
    cwd: join(ROOT, 'apps/web'),
    env: { ...process.env, POOLBENCH_PAGE_CACHE: 'off', POOLBENCH_AUTH_CACHE_MS: '0' },
    stdio: ['ignore', logB, logB],
    detached: true,
  });
  serverB.on('exit', (code, signal) =>
    console.error(
      `cache-off server exited (${code ?? signal}); its log: ${join(work, 'web-b.log')}`,
    ),
  );
  await waitHealthy(B);
  const sides = [] as {
    name: string;
    base: string;
    cookie: string;
    share: string;
    newShare: () => Promise<string>;
  }[];
  for (const [name, base] of [
    ['cache on', A],
    ['cache off', B],
  ] as const) {
    const s = await stackSession(base, f.teamId, A);
    const newShare = async () =>
      (
        await s.trpc<{ token: string }>('shareLink.create', {
          target: { kind: 'experiment', experimentId: f.experimentId },
          title: 'bench: pages under load',
          expiresInDays: 1,
        })
      ).token;
    sides.push({ name, base, cookie: s.cookie, share: await newShare(), newShare });
  }
  const run = f.runIds[0]!;
  const exp = await (async () => {
    const db = createDb({
      url: process.env.DATABASE_URL!,
      applicationName: 'poolbench-pages-bench',
    });
    try {
      return await db.experiment.findUniqueOrThrow({
        where: { id: f.experimentId },
        select: {
          poolConfigs: { select: { poolConfigId: true } },
          scenarios: { select: { scenarioId: true } },
        },
      });
    } finally {
      await db.$disconnect();
    }
  })();
  const cells = exp.poolConfigs.map((p) => ({
    kind: 'cell' as const,
    experimentId: f.experimentId,
    poolConfigId: p.poolConfigId,
    scenarioId: exp.scenarios[0]!.scenarioId,
  }));
  const endpoints = [
    {
      name: `run page data of a ${SECONDS / 60}-minute run (/api/runs/[id]/data: the run and its chart series)`,
      path: () => `/api/runs/${run}/data`,
      auth: true,
    },
    {
      name: `compare view of ${f.runIds.length} x ${SECONDS / 60}-minute runs (/api/compare/data, 2 cells x ${REPEATS})`,
      path: () => `/api/compare/data?${compareQuery(cells)}`,
      auth: true,
    },
    {
      name: `run page of a ${SECONDS / 60}-minute run (/runs/[id], signed in: the HTML)`,
      path: () => `/runs/${run}`,
      auth: true,
    },
    {
      name: `experiment page (/experiments/[id], signed in: the HTML)`,
      path: () => `/experiments/${f.experimentId}`,
      auth: true,
    },
    {
      name: `compare page of 2 cells x ${REPEATS} (/compare, signed in: the HTML)`,
      path: () => `/compare?${compareQuery(cells)}`,
      auth: true,
    },
    {
      name: 'share page (experiment link, signed out)',
      path: (s: (typeof sides)[number]) => `/share/${s.share}`,
      auth: false,
    },
    { name: '/api/health', path: () => '/api/health', auth: false },
  ];
  const loadBefore = loadavg();
  const cpuBefore = cpuReferenceMs();
  // each side's health time when nothing else runs: settle() waits for it between steps
  const quiet: Record<string, number> = {};
  for (const sd of sides) {
    const times: number[] = [];
    for (let i = 0; i < 11; i++) times.push(await healthMs(sd.base));
    quiet[sd.name] = median(times);
  }
  let settledS = 0;
  const results: {
    endpoint: string;
    steps: Record<string, Step[]>;
    sequential: Record<string, number>;
  }[] = [];
  for (const e of endpoints) {
    const steps: Record<string, Step[]> = { 'cache on': [], 'cache off': [] };
    for (const s of sides) {
      const res = await get(`${s.base}${e.path(s)}`, {
        headers: e.auth ? { cookie: s.cookie } : {},
      });
      if (!res.ok)
        throw new Error(
          `${e.name} on ${s.name}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`,
        );
    }
    // one request at a time, sides alternated: the server time per request without queueing
    const seq: Record<string, number[]> = { 'cache on': [], 'cache off': [] };
    for (let i = 0; i < SEQUENTIAL; i++) {
      for (const s of sides) {
        const t = performance.now();
        const r = await get(`${s.base}${e.path(s)}`, {
          headers: e.auth ? { cookie: s.cookie } : {},
        });
        await r.arrayBuffer();
        seq[s.name]!.push(performance.now() - t);
      }
    }
    const going = new Set(sides.map((s) => s.name));
    for (const rate of RATES) {
      for (const s of sides.filter((x) => going.has(x.name))) {
        const step = await k6(`${s.base}${e.path(s)}`, e.auth ? s.cookie : '', rate);
        steps[s.name]!.push(step);
        console.error(
          `${e.name} · ${s.name} · ${rate}/s: p95 ${step.p95.toFixed(1)} ms, ${step.failed} failed, ${step.dropped} dropped`,
        );
        if (!step.holds) going.delete(s.name);
        settledS += await settle(s.base, quiet[s.name]!);
      }
      if (going.size === 0) break;
    }
    results.push({
      endpoint: e.name,
      steps,
      sequential: Object.fromEntries(Object.entries(seq).map(([k, v]) => [k, median(v)])),
    });
  }
  // A cold crowd: a link nobody has opened yet (just posted in a channel) taken at 200 req/s from
  // its first request, sides alternated
  const cold: Record<string, Step[]> = { 'cache on': [], 'cache off': [] };
  for (let trial = 0; trial < COLD_TRIALS; trial++) {
    for (const s of sides) {
      const step = await k6(`${s.base}/share/${await s.newShare()}`, '', COLD_RATE);
      cold[s.name]!.push(step);
      console.error(
        `cold share link · ${s.name} · trial ${trial + 1}: p95 ${step.p95.toFixed(1)} ms, p99 ${step.p99.toFixed(1)} ms, max ${step.max.toFixed(0)} ms`,
      );
      settledS += await settle(s.base, quiet[s.name]!);
    }
  }
  const loadAfter = loadavg();
  const cpuAfter = cpuReferenceMs();

  const processesText = (n: number) => (n === 1 ? 'one Node process' : `${n} Node processes`);
  const held = (steps: Step[]) => steps.filter((s) => s.holds).at(-1)?.rate ?? 0;
  const fromMemory = (steps: Step[]) => {
    const n = steps.reduce((a, s) => a + s.requests, 0);
    const mem = steps.reduce((a, s) => a + s.fromMemory * s.requests, 0);
    return n ? `${((100 * mem) / n).toFixed(1)} %` : '–';
  };
  const cell = (s: Step | undefined) =>
    s
      ? `${s.p95 < 10 ? s.p95.toFixed(1) : Math.round(s.p95)} ms${s.failed ? `, ${s.failed} failed` : ''}${s.dropped ? `, ${s.dropped} dropped` : ''}`
      : '–';
  const md = [
    "## Web: PoolBench's own pages under load",
    '',
    `Machine: ${cpus().length} CPUs (\`nproc\` ${execSync('nproc').toString().trim()}), ${cpus()[0]?.model ?? 'unknown'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; web, worker, Postgres, Redis and k6 on the same machine. Node ${process.version}.`,
    `Load average (1/5/15 min) before: ${loadBefore.map((x) => x.toFixed(1)).join(' / ')}, after: ${loadAfter.map((x) => x.toFixed(1)).join(' / ')}.`,
    cpuReferenceLine(cpuBefore, cpuAfter),
    '',
    `Command: \`make bench\` (\`npx tsx --tsconfig apps/web/tsconfig.json apps/web/bench/pages-under-load.ts\` against the running stack), ${new Date().toISOString().slice(0, 16)}Z. PoolBench's k6 (\`packages/k6/bin/k6\`), each endpoint alone,`,
    `constant arrival rate for ${STEP_S} s per step (a second's worth of VUs allocated before the step, so a brief stall of the server shows as latency, not as iterations k6 dropped while it made more VUs), rates ${RATES.join(', ')} req/s until a step fails. A step **holds** when p95 < 100 ms with no failed request and no dropped iteration.`,
    `A/B in one run, stepped alternately: **cache on** is the stack's web server; **cache off** a second \`next start\` of the same build with \`POOLBENCH_PAGE_CACHE=off\` and \`POOLBENCH_AUTH_CACHE_MS=0\` (every request looks up its session and team; the signed-in HTML pages are rendered by Next.js for every request, which before the pages were kept was the only way, though their check of the object then also read it whole). Each endpoint is requested once on both before its steps (the cache-on side then serves finished runs from memory). After each step the bench waits until that server has worked off what the step left queued (three \`/api/health\` answers in a row within 3x its quiet time; k6 gives up on a request after 10 s, the server does not), so one side's overload does not slow the other's next step: ${settledS.toFixed(0)} s of waiting in all.`,
    `Data: ${f.runIds.length} finished runs of ${SECONDS} s (2 pool configs x ${REPEATS} repeats, ~400 req/s; ${f.runIds.length * SECONDS} RunSecond rows with real HDR histograms${f.generatedS ? `, generated in ${f.generatedS.toFixed(0)} s` : ', reused from an earlier run'}); signed in as the demo user for the tRPC calls. The data lives in a team \`bench: pages under load\` of the demo user and is reused by the next run.`,
    '',
    `| endpoint | side | one at a time (median of ${SEQUENTIAL}) | ${RATES.map((r) => `${r}/s p95`).join(' | ')} | highest rate held | answered from memory |`,
    `|---|---|---|${RATES.map(() => '---').join('|')}|---|---|`,
    ...results.flatMap((r) =>
      sides.map(
        (s) =>
          `| ${s.name === 'cache on' ? r.endpoint : ''} | ${s.name} | ${r.sequential[s.name]!.toFixed(1)} ms | ${RATES.map((rate) => cell(r.steps[s.name]!.find((x) => x.rate === rate))).join(' | ')} | **${held(r.steps[s.name]!)} req/s** | ${fromMemory(r.steps[s.name]!)} |`,
      ),
    ),
    '',
    `The web server is ${processesText(webProcesses(process.env.POOLBENCH_WEB_PROCESSES))}: one request at a time costing *t* ms of a core bounds a process near 1000/*t* req/s before k6, Postgres and the rest of the machine take their share of the ${cpus().length} cores; every signed-in request is authorized. With the cache on, a request whose session, team and page the process decided within the last 2 s (the authorization bound, docs/security.md) is answered by \`server.mjs\` from memory before Next.js routes it (\`Server-Timing: memory\`, the last column); the others go through Next.js, and one at a time renews what is kept before it ends. \`/api/health\` always goes through Next.js and reads the database: it is what a request costs without the fast path.`,
    '',
    `**A cold crowd on a share page.** A new experiment share link, never opened, taken at ${COLD_RATE} req/s for ${STEP_S} s from its first request (signed out), ${COLD_TRIALS} trials a side, alternated; each trial's p95, p99 and slowest request. With the cache on, the requests arriving while the first one is decided wait for its answer and are then answered from memory, instead of each going through Next.js behind it.`,
    '',
    '| side | trial | p95 | p99 | slowest | failed | dropped | answered from memory |',
    '|---|---|---|---|---|---|---|---|',
    ...sides.flatMap((s) =>
      cold[s.name]!.map(
        (c, i) =>
          `| ${i === 0 ? s.name : ''} | ${i + 1} | ${c.p95.toFixed(1)} ms | ${c.p99.toFixed(1)} ms | ${c.max.toFixed(0)} ms | ${c.failed} | ${c.dropped} | ${(100 * c.fromMemory).toFixed(1)} % |`,
      ),
    ),
    '',
    `Goal: 200 req/s each. ${results.map((r) => `${r.endpoint.split(' (')[0]}: ${held(r.steps['cache on']!)} req/s with the cache (${held(r.steps['cache off']!)} without)`).join('; ')}.`,
  ].join('\n');
  console.log(md);
  execSync('node scripts/bench-section.mjs web-pages-under-load', {
    cwd: ROOT,
    input: md,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
} finally {
  stopServerB();
}
