// Change points on the real product (make bench, section change-points; docs/change-points.md):
// against the running stack as the demo user, on the demo team's lab target. One schedule fires
// FIRINGS times through "Run now" (the product's own firing path, the real worker, k6 and the lab
// target), each firing one run of two pool configs under a fixed arrival rate. After half the
// firings one config is made smaller (its max pool size cut from 8 to 2: 2 connections of 20 ms
// serve 100 req/s, less than the 120 asked, so requests queue for connections; at 3 of them the
// arrivals, as regular as k6 makes them, would barely queue at all);
// the other is left alone. The change points of both histories are then read through the REST
// route CI uses: the shrunk one must have its change point at the firing after the edit, the
// other none. Trends of the shrunk config is photographed in Chromium (Debian's, as the browser
// tests use it) as docs/screenshots/trends-bench-change-point.png.
import { execSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { createDb, DEMO_TEAM_SLUG, LAB_TARGET_NAME } from '@poolbench/db';
import { TERMINAL_RUN_STATUSES } from '@poolbench/contracts';
import { stackSession } from './stack-session';

const APP = (process.env.POOLBENCH_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const FIRINGS = Number(process.env.BENCH_CP_FIRINGS ?? 20);
const RATE = 120;
const MS = 20;
const BEFORE = 8;
const AFTER = Number(process.env.BENCH_CP_SHRUNK ?? 2);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const tag = new Date().toISOString().slice(0, 16).replace(/\D/g, '');

const db = createDb({ url: process.env.DATABASE_URL!, applicationName: 'poolbench-cp-bench' });

interface ChangePoints {
  firings: number;
  changePoints: Array<{
    metric: string;
    kind: string;
    change: number;
    interval: { lower: number; upper: number } | null;
    pValue: number;
    before: { name: string };
    after: { name: string; experimentId: string };
  }>;
}

try {
  const loadBefore = loadavg();
  const team = await db.team.findUniqueOrThrow({ where: { slug: DEMO_TEAM_SLUG } });
  const target = await db.target.findFirstOrThrow({
    where: { teamId: team.id, name: LAB_TARGET_NAME, archivedAt: null },
  });
  const s = await stackSession(APP, team.id, APP);
  const fixed = (n: number) => ({
    strategy: 'fixed',
    params: { maxConns: n, acquireTimeoutMs: 5000 },
  });
  const shrinking = await s.trpc<{ id: string }>('poolConfig.create', {
    targetId: target.id,
    name: `cp bench ${tag} shrinking`,
    config: fixed(BEFORE),
  });
  const steady = await s.trpc<{ id: string }>('poolConfig.create', {
    targetId: target.id,
    name: `cp bench ${tag} steady`,
    config: fixed(BEFORE),
  });
  const scenario = await s.trpc<{ id: string }>('scenario.create', {
    name: `cp bench ${tag} ${RATE} req/s`,
    scenario: {
      template: 'constant-arrival-rate',
      // VUs enough for the queue of the shrunk pool (120 req/s × up to ~1 s), so no iteration is dropped
      params: { ratePerSec: RATE, durationMs: 3000, preAllocatedVUs: 150, maxVUs: 300 },
      requests: [{ method: 'GET', path: '/work', query: { ms: MS } }],
    },
  });
  const schedule = await s.trpc<{ id: string }>('experiment.schedule', {
    definition: {
      name: `cp bench ${tag}`,
      targetId: target.id,
      poolConfigIds: [shrinking.id, steady.id],
      scenarioIds: [scenario.id],
      repeats: 1,
    },
    // never fires by itself in the bench's lifetime: every firing is a "Run now"
    schedule: { name: `cp bench ${tag}`, cron: '0 3 1 1 *', timezone: 'UTC' },
  });
  const t0 = Date.now();
  for (let i = 1; i <= FIRINGS; i++) {
    if (i === FIRINGS / 2 + 1)
      await s.trpc('poolConfig.update', {
        id: shrinking.id,
        name: `cp bench ${tag} shrinking`,
        config: fixed(AFTER),
      });
    const { experimentId } = await s.trpc<{ experimentId: string }>('schedule.runNow', {
      id: schedule.id,
    });
    for (;;) {
      const left = await db.run.count({
        where: { experimentId, status: { notIn: [...TERMINAL_RUN_STATUSES] } },
      });
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    process.stdout.write(`firing ${i}/${FIRINGS} done\n`);
  }
  const elapsedS = (Date.now() - t0) / 1000;
  const token = (
    await s.trpc<{ token: string }>('apiToken.create', {
      name: `cp bench ${tag}`,
      scopes: ['runs:read'],
      expiresInDays: 1,
    })
  ).token;
  const read = async (poolConfig: string) => {
    const q = new URLSearchParams({
      target: target.id,
      scenario: scenario.id,
      poolConfig,
      metrics: 'p95Ms,p99Ms,rps,errorRate',
    });
    const r = await fetch(`${APP}/api/v1/change-points?${q}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (!r.ok) throw new Error(`change-points: HTTP ${r.status} ${await r.text()}`);
    return (await r.json()) as ChangePoints;
  };
  const [a, b] = [await read(shrinking.id), await read(steady.id)];
  const names = (
    await db.experiment.findMany({
      where: { scheduleId: schedule.id },
      orderBy: { createdAt: 'asc' },
      select: { id: true },
    })
  ).map((e) => e.id);
  const at = (id: string) => names.indexOf(id) + 1;
  const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)} %`;
  const row = (label: string, cp: ChangePoints) =>
    cp.changePoints.length === 0
      ? [`| ${label} | ${cp.firings} | none | | | |`]
      : cp.changePoints.map(
          (c) =>
            `| ${label} | ${cp.firings} | ${c.metric} ${c.kind} at firing ${at(c.after.experimentId)} | ${pct(c.change)} | ${c.interval ? `${pct(c.interval.lower)} … ${pct(c.interval.upper)}` : '–'} | ${c.pValue.toExponential(1)} |`,
        );
  const shrunkAtEdit = a.changePoints.filter(
    (c) => c.kind === 'regression' && at(c.after.experimentId) === FIRINGS / 2 + 1,
  );
  // what the schedule itself said at each firing (its outcome waits on no webhook)
  const outcomes = await db.scheduleNotification.findMany({
    where: { scheduleId: schedule.id },
    select: { experimentId: true, outcome: true, payload: true },
  });
  const outcomeAt = (id: string) => {
    const n = outcomes.find((o) => o.experimentId === id);
    const decidedBy = (n?.payload as { decidedBy?: string | null } | undefined)?.decidedBy;
    return n ? `${n.outcome}${decidedBy ? ` (decided by ${decidedBy})` : ''}` : 'undecided';
  };
  const said = names.map((id, i) => `${i + 1}: ${outcomeAt(id)}`);
  const loadAfter = loadavg();
  const md = [
    '## Change points on the real product',
    '',
    `\`make bench\` (\`apps/web/bench/change-points.ts\`), ${new Date().toISOString().slice(0, 10)}. Machine: ${cpus().length} CPUs, ${cpus()[0]?.model ?? 'unknown'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; web, worker, k6, lab target, Postgres and Redis on the same machine. Load average (1 min) before / after: ${loadBefore[0]!.toFixed(1)} / ${loadAfter[0]!.toFixed(1)}.`,
    '',
    `One schedule on the demo lab target fired ${FIRINGS} times with "Run now" (${elapsedS.toFixed(0)} s), each firing one 3-second run of two pool configs at ${RATE} req/s of \`GET /work?ms=${MS}\`. Before firing ${FIRINGS / 2 + 1} the first config's max pool size was cut from ${BEFORE} to ${AFTER} connections; the second was left at ${BEFORE}. Change points read through \`GET /api/v1/change-points\` (what \`poolbench changes\` prints):`,
    '',
    '| pool config | firings | change point | change | 95 % interval | p |',
    '|---|---|---|---|---|---|',
    ...row(`shrunk ${BEFORE} → ${AFTER} before firing ${FIRINGS / 2 + 1}`, a),
    ...row(`left at ${BEFORE}`, b),
    '',
    shrunkAtEdit.length > 0 && b.changePoints.length === 0
      ? `The shrunk config's change point is at the firing after the edit (${shrunkAtEdit.map((c) => c.metric).join(', ')}); the unchanged one has none.`
      : `**Not as expected:** the shrunk config's change points are at ${a.changePoints.map((c) => `${c.metric} firing ${at(c.after.experimentId)}`).join(', ') || 'none'}, the unchanged one's at ${b.changePoints.map((c) => `${c.metric} firing ${at(c.after.experimentId)}`).join(', ') || 'none'}.`,
    '',
    `The schedule's outcome at each firing (no baseline is saved, so the history is its only evidence; a change point is news at the firing where it is first seen, three firings after the change): ${said.join('; ')}.`,
  ].join('\n');
  console.log(md);
  execSync('node scripts/bench-section.mjs change-points', {
    cwd: ROOT,
    input: md,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies(
      s.cookie.split('; ').map((c) => {
        const i = c.indexOf('=');
        return { name: c.slice(0, i), value: c.slice(i + 1), url: APP };
      }),
    );
    const page = await context.newPage();
    await page.goto(`${APP}/trends?cell=${target.id}.${scenario.id}.${shrinking.id}`);
    await page.getByTestId('change-points').waitFor();
    await page.screenshot({
      path: join(ROOT, 'docs/screenshots/trends-bench-change-point.png'),
      fullPage: true,
    });
  } finally {
    await browser.close();
  }
  if (!(shrunkAtEdit.length > 0 && b.changePoints.length === 0)) process.exitCode = 1;
} finally {
  await db.$disconnect();
}
