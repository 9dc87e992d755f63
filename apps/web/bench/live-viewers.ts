// Live viewers of a run (`make bench`, after `make up`; section `web-live-viewers` of
// docs/benchmarks.md), against the running stack as the demo user, on the demo team's lab target:
//
// 1. VIEWERS (default 100) SSE viewers of one live run: for every second each viewer receives,
//    the delay from the second's end (its RunSecond `ts` + 1 s) to the viewer, and from the
//    worker's publish (the event's `atMs`) to the viewer; the Redis subscriptions the web app
//    held for the run's channel while they watched.
// 2. The observer effect, A/B in one run: the same run config measured REPEATS times each with no
//    viewer (A and A′, the A/A noise) and with OBSERVERS viewers plus the run's share page at
//    SHARE_RATE req/s (B), interleaved A A′ B …; the Hodges–Lehmann change in req/s and p99 of
//    B against A and of A′ against A, with 95 % intervals.
import { execSync, spawn } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { createDb, DEMO_TEAM_SLUG, LAB_TARGET_NAME, parseRun } from '@poolbench/db';
import { producerConnection } from '@poolbench/queue';
import { TERMINAL_RUN_STATUSES, SERVICE_DEFAULTS } from '@poolbench/contracts';
import { hodgesLehmann, median, quantile } from '@poolbench/stats';
import { stackSession } from './stack-session';

const APP = (process.env.POOLBENCH_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 100);
const OBSERVERS = Number(process.env.BENCH_OBSERVERS ?? 50);
const SHARE_RATE = Number(process.env.BENCH_SHARE_RATE ?? 50);
const REPEATS = Number(process.env.BENCH_OBSERVER_REPEATS ?? 4);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const K6 = join(ROOT, 'packages/k6/bin/k6');
const RATE = 100;
const LIVE_S = 30;
const MEASURED_S = 10;

const db = createDb({ url: process.env.DATABASE_URL!, applicationName: 'poolbench-live-bench' });
const redis = producerConnection(process.env.REDIS_URL ?? SERVICE_DEFAULTS.REDIS_URL);

interface Viewer {
  seconds: Map<number, { at: number; publishedAt: number }>;
  abort: AbortController;
  done: Promise<void>;
}

/** One SSE viewer: reads the run's event stream and notes when each second arrived. */
function watch(url: string, cookie: string): Viewer {
  const abort = new AbortController();
  const seconds = new Map<number, { at: number; publishedAt: number }>();
  const done = (async () => {
    const res = await fetch(url, { headers: { cookie }, signal: abort.signal });
    if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
    const decoder = new TextDecoder();
    let buf = '';
    const reader = res.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const at = Date.now();
      buf += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, end);
        buf = buf.slice(end + 2);
        if (!frame.startsWith('event: second')) continue;
        const data = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as {
          atMs: number;
          point: { second: number };
        };
        seconds.set(data.point.second, { at, publishedAt: data.atMs });
      }
    }
  })().catch((e: unknown) => {
    if (!abort.signal.aborted) throw e;
  });
  return { seconds, abort, done };
}

async function waitStatus(runId: string, ok: (s: string) => boolean, what: string) {
  const end = Date.now() + 10 * 60_000;
  for (;;) {
    const r = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
    if (ok(r.status)) return r.status;
    if (Date.now() > end) throw new Error(`run ${runId}: ${what} not reached (${r.status})`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

const ms = (v: number) => (v < 10 ? v.toFixed(1) : Math.round(v).toString());
const pct = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(1)} %`;

try {
  const team = await db.team.findUniqueOrThrow({ where: { slug: DEMO_TEAM_SLUG } });
  const target = await db.target.findFirstOrThrow({
    where: { teamId: team.id, name: LAB_TARGET_NAME, archivedAt: null },
  });
  const s = await stackSession(APP, team.id, APP);
  const named = async <T extends { id: string }>(
    list: Array<{ id: string; name: string }>,
    name: string,
    create: () => Promise<T>,
  ) => list.find((x) => x.name === name)?.id ?? (await create()).id;
  const configs = await s.query<Array<{ id: string; name: string }>>('poolConfig.list', {
    targetId: target.id,
  });
  const poolConfigId = await named(configs, 'bench: live viewers, fixed 10', () =>
    s.trpc<{ id: string }>('poolConfig.create', {
      targetId: target.id,
      name: 'bench: live viewers, fixed 10',
      config: { strategy: 'fixed', params: { maxConns: 10 } },
    }),
  );
  const scenarios = await s.query<Array<{ id: string; name: string }>>('scenario.list');
  const scenarioFor = (seconds: number) =>
    named(scenarios, `bench: live viewers, ${RATE}/s for ${seconds} s`, () =>
      s.trpc<{ id: string }>('scenario.create', {
        name: `bench: live viewers, ${RATE}/s for ${seconds} s`,
        scenario: {
          template: 'constant-arrival-rate',
          params: {
            ratePerSec: RATE,
            durationMs: seconds * 1000,
            preAllocatedVUs: 10,
            maxVUs: 50,
          },
          requests: [{ method: 'GET', path: '/work', query: { ms: 2 } }],
        },
      }),
    );
  const launch = async (scenarioId: string, name: string) =>
    (
      await s.trpc<{ runIds: string[] }>('experiment.launch', {
        name,
        targetId: target.id,
        poolConfigIds: [poolConfigId],
        scenarioIds: [scenarioId],
        repeats: 1,
      })
    ).runIds[0]!;
  const loadBefore = loadavg();

  // 1. many viewers of one live run
  const liveRun = await launch(await scenarioFor(LIVE_S), 'bench: live viewers');
  const events = `${APP}/api/runs/${liveRun}/events`;
  const viewers = Array.from({ length: VIEWERS }, () => watch(events, s.cookie));
  await waitStatus(liveRun, (st) => st === 'running', 'running');
  await new Promise((r) => setTimeout(r, 3000));
  const [, subscriptions] = (await redis.call('PUBSUB', 'NUMSUB', `poolbench:run:${liveRun}`)) as [
    string,
    number,
  ];
  await waitStatus(liveRun, (st) => TERMINAL_RUN_STATUSES.includes(st as never), 'the end');
  await Promise.race([
    Promise.all(viewers.map((v) => v.done)),
    new Promise((r) => setTimeout(r, 5000)),
  ]);
  for (const v of viewers) v.abort.abort();
  const delivery = parseRun(await db.run.findUniqueOrThrow({ where: { id: liveRun } })).summary
    ?.delivery;
  if (!delivery) throw new Error(`run ${liveRun} has no k6 output delivery record`);
  const stored = await db.runSecond.findMany({
    where: { runId: liveRun, segment: 'all' },
    select: { second: true, ts: true },
  });
  const endOf = new Map(stored.map((r) => [r.second, r.ts.getTime() + 1000]));
  const endToEnd: number[] = [];
  const fanOut: number[] = [];
  let missing = 0;
  for (const v of viewers) {
    for (const [second, end] of endOf) {
      const got = v.seconds.get(second);
      if (!got) {
        missing++;
        continue;
      }
      endToEnd.push(got.at - end);
      fanOut.push(got.at - got.publishedAt);
    }
  }

  // 2. the observer effect
  const measured = await scenarioFor(MEASURED_S);
  const sides = [
    'A (no viewer)',
    'A′ (no viewer)',
    `B (${OBSERVERS} viewers + share page ${SHARE_RATE}/s)`,
  ];
  const results: Record<string, Array<{ rps: number; p99: number }>> = Object.fromEntries(
    sides.map((x) => [x, []]),
  );
  const link = await s.trpc<{ token: string }>('shareLink.create', {
    target: { kind: 'run', runId: liveRun },
    title: 'bench: live viewers',
    expiresInDays: 1,
  });
  for (let rep = 0; rep < REPEATS; rep++) {
    for (const side of sides) {
      const runId = await launch(measured, `bench: observer effect ${rep + 1} ${side}`);
      const observed = side.startsWith('B');
      let watchers: Viewer[] = [];
      let share: ReturnType<typeof execShareLoad> | null = null;
      if (observed) {
        watchers = Array.from({ length: OBSERVERS }, () =>
          watch(`${APP}/api/runs/${runId}/events`, s.cookie),
        );
        share = execShareLoad(`${APP}/share/${link.token}`, MEASURED_S + 15);
      }
      try {
        await waitStatus(runId, (st) => TERMINAL_RUN_STATUSES.includes(st as never), 'the end');
      } finally {
        // a run that never ends fails the bench; its viewers and share-page k6 end with it
        for (const w of watchers) w.abort.abort();
        share?.kill();
      }
      const run = parseRun(await db.run.findUniqueOrThrow({ where: { id: runId } }));
      const rps = run.summary?.rps ?? null;
      const p99 = run.summary?.latency?.p99 ?? null;
      if (rps === null || p99 === null)
        throw new Error(`run ${runId} ended ${run.status} without req/s and p99`);
      results[side]!.push({ rps, p99 });
      console.error(`${side} #${rep + 1}: ${rps.toFixed(1)} req/s, p99 ${p99.toFixed(2)} ms`);
    }
  }
  const loadAfter = loadavg();
  const change = (b: number[], a: number[]) => {
    const la = a.map(Math.log);
    const hl = hodgesLehmann(b.map(Math.log), la, 0.95, 'exact');
    const f = (x: number) => 100 * (Math.exp(x) - 1);
    return `${pct(f(hl.estimate))} (${pct(f(hl.lower))} … ${pct(f(hl.upper))})`;
  };
  const col = (side: string, k: 'rps' | 'p99') => results[side]!.map((r) => r[k]);
  const md = [
    '## Web: live viewers of a run',
    '',
    `Machine: ${cpus().length} CPUs, ${cpus()[0]?.model ?? 'unknown'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; web, worker, k6, lab target, Postgres and Redis on the same machine. Load average (1 min) before / after: ${loadBefore[0]!.toFixed(1)} / ${loadAfter[0]!.toFixed(1)}.`,
    `Command: \`make bench\` (\`npx tsx --tsconfig apps/web/tsconfig.json apps/web/bench/live-viewers.ts\` against the running stack), ${new Date().toISOString().slice(0, 16)}Z. Runs through the real worker on the demo team's lab target: \`GET /work?ms=2\` at ${RATE} req/s, fixed pool of 10.`,
    '',
    `**${VIEWERS} viewers of one live run** (${LIVE_S} s): each viewer is an SSE stream of \`/api/runs/[id]/events\` signed in as the demo user. Delay of each second to each viewer (${endToEnd.length} deliveries, ${missing} missing):`,
    '',
    '| delay | p50 | p95 | max |',
    '|---|---|---|---|',
    `| from the second's end (\`RunSecond.ts\` + 1 s) to the viewer | ${ms(quantile(endToEnd, 0.5))} ms | **${ms(quantile(endToEnd, 0.95))} ms** | ${ms(Math.max(...endToEnd))} ms |`,
    `| from the worker's publish (event \`atMs\`) to the viewer | ${ms(quantile(fanOut, 0.5))} ms | ${ms(quantile(fanOut, 0.95))} ms | ${ms(Math.max(...fanOut))} ms |`,
    '',
    `Redis subscriptions to the run's channel while the ${VIEWERS} watched (\`PUBSUB NUMSUB\`): **${subscriptions}**. Goal: p95 from a second's end < 1.5 s.`,
    '',
    `Most of that delay is the k6 output's grace: a second is written ${delivery.graceMs ?? '?'} ms after it ended (checked every 100 ms), so samples that reach the output late are still in it. In this run the slowest sample took **${delivery.maxLagMs ?? '?'} ms** from its timestamp to the output, and ${delivery.lateSamples} arrived after their second was written (the run's \`summary.delivery\`).`,
    '',
    `**Observer effect**, A/B in one run: the same ${MEASURED_S}-second run ${REPEATS} times per side, interleaved; B with ${OBSERVERS} live viewers of the run and the run's share page loaded at ${SHARE_RATE} req/s by a second k6 during it. Change against A, Hodges–Lehmann on log values with its 95 % interval; A′ against A is the run-to-run noise of identical runs.`,
    '',
    '| side | req/s (median) | p99 ms (median) | req/s vs A | p99 vs A |',
    '|---|---|---|---|---|',
    ...sides.map(
      (side, i) =>
        `| ${side} | ${median(col(side, 'rps')).toFixed(1)} | ${median(col(side, 'p99')).toFixed(2)} | ${i === 0 ? '–' : change(col(side, 'rps'), col(sides[0]!, 'rps'))} | ${i === 0 ? '–' : change(col(side, 'p99'), col(sides[0]!, 'p99'))} |`,
    ),
  ].join('\n');
  console.log(md);
  execSync('node scripts/bench-section.mjs web-live-viewers', {
    cwd: ROOT,
    input: md,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
} finally {
  redis.disconnect();
  await db.$disconnect();
}

/** The share page under a steady rate by a second k6, in the background. */
function execShareLoad(url: string, seconds: number) {
  const script = `import http from 'k6/http';
export const options = { discardResponseBodies: true, scenarios: { s: { executor: 'constant-arrival-rate', rate: ${SHARE_RATE}, timeUnit: '1s', duration: '${seconds}s', preAllocatedVUs: 10, maxVUs: 100 } } };
export default function () { http.get('${url}'); }`;
  const child = spawn(K6, ['run', '--quiet', '--no-usage-report', '--address', '', '-'], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin.end(script);
  return child;
}
