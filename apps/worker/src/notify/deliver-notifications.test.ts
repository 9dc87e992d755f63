import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb, sealSecret, toJson, type Db, type NotificationPayload } from '@poolbench/db';
import { seed } from '@poolbench/runs';
import { withTempDatabase } from '@poolbench/db/testing';
import { launchExperiment } from '@poolbench/runs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkWebhookHost, deliverDueNotifications, MAX_ATTEMPTS } from './deliver-notifications';

const SECRET = 'whsec-test-0123456789abcdef';
const KEY = randomBytes(32);
const quiet = { info: () => {}, warn: () => {} };

interface Captured {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('schedule webhooks: delivery (real Postgres, a real HTTP capture server)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seed>>;
  let server: http.Server;
  let base: string;
  const got: Captured[] = [];
  let answer: (path: string) => { status: number; headers?: Record<string, string> } = () => ({
    status: 204,
  });
  let scheduleId: string;
  let sourceId: string;

  beforeAll(async () => {
    const t = await withTempDatabase('worker_webhooks');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 4 });
    ids = await seed(db);
    // the receivers listen on loopback, which this installation opened to teams (as its admin would)
    await db.installationRange.create({ data: { cidr: '127.0.0.0/8', createdById: ids.userId } });
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push({ path: req.url ?? '', headers: req.headers, body });
        const a = answer(req.url ?? '');
        res.writeHead(a.status, a.headers).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const pc = await db.poolConfig.findFirstOrThrow({ where: { teamId: ids.teamId } });
    const sc = await db.scenario.findFirstOrThrow({ where: { teamId: ids.teamId } });
    sourceId = (
      await launchExperiment(db, {
        teamId: ids.teamId,
        targetId: ids.targetId,
        poolConfigIds: [pc.id],
        scenarioIds: [sc.id],
        repeats: 1,
        name: 'def',
      })
    ).experimentId;
    scheduleId = (
      await db.schedule.create({
        data: {
          teamId: ids.teamId,
          name: 'nightly',
          sourceExperimentId: sourceId,
          cron: '0 3 * * *',
          baselineName: 'main',
        },
      })
    ).id;
  });
  afterAll(async () => {
    server?.close();
    await db?.$disconnect();
    await dispose?.();
  });
  beforeEach(async () => {
    got.length = 0;
    answer = () => ({ status: 204 });
    await db.scheduleNotification.deleteMany({});
    await db.allowedHost.deleteMany({ where: { teamId: ids.teamId } });
    await db.allowedHost.create({
      data: { teamId: ids.teamId, pattern: '127.0.0.1/32', createdById: ids.userId },
    });
    await setWebhook(`${base}/hook`, 'generic');
  });

  const setWebhook = (url: string, format: 'generic' | 'slack') =>
    db.schedule.update({
      where: { id: scheduleId },
      data: {
        webhookUrlSealed: sealSecret(url, KEY),
        webhookHost: new URL(url).host,
        webhookSecretSealed: sealSecret(SECRET, KEY),
        webhookFormat: format,
      },
    });

  const payload = (experimentId: string): NotificationPayload => ({
    event: 'schedule.regression',
    outcome: 'regression',
    schedule: { id: scheduleId, name: 'nightly' },
    experiment: {
      id: experimentId,
      name: 'nightly · 2026-11-26 03:00 UTC',
      path: `/experiments/${experimentId}`,
    },
    target: { id: ids.targetId, name: 'lab' },
    baseline: 'main',
    cells: [
      {
        poolConfig: 'pgx 8',
        scenario: 'burst',
        baselineRuns: 5,
        candidateRuns: 5,
        regression: true,
        metrics: [
          {
            key: 'p99Ms',
            label: 'Latency p99',
            unit: 'ms',
            verdict: 'worse',
            baselineMedian: 30,
            candidateMedian: 92,
            changePercent: { estimate: 205, lower: 180, upper: 240 },
            confidence: 0.968,
            pValue: 0.008,
            reason: 'p99 rose',
          },
        ],
      },
    ],
    decidedAt: '2026-11-26T03:10:00.000Z',
  });
  const pending = async (now = new Date()) => {
    const e = await db.experiment.create({
      data: { teamId: ids.teamId, targetId: ids.targetId, name: 'fired', repeats: 1, scheduleId },
    });
    return db.scheduleNotification.create({
      data: {
        scheduleId,
        experimentId: e.id,
        outcome: 'regression',
        payload: toJson.notificationPayload(payload(e.id)),
        status: 'pending',
        nextAttemptAt: now,
      },
    });
  };
  const row = (id: string) => db.scheduleNotification.findUniqueOrThrow({ where: { id } });
  const deliver = (now?: Date) =>
    deliverDueNotifications(db, quiet, {
      appUrl: 'https://poolbench.example.com/',
      timeoutMs: 3000,
      secretKey: KEY,
      ...(now ? { now: () => now } : {}),
    });

  it('sends the generic JSON once, signed with HMAC-SHA256 over "<t>.<body>", with absolute links, and records it', async () => {
    const n = await pending();
    expect(await deliver()).toBe(1);
    expect(got).toHaveLength(1);
    const [req] = got;
    expect(req!.path).toBe('/hook');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['x-poolbench-event']).toBe('schedule.regression');
    expect(req!.headers['x-poolbench-delivery']).toBe(n.id);
    const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req!.headers['x-poolbench-signature']));
    expect(sig).not.toBeNull();
    expect(Math.abs(Number(sig![1]) - Date.now() / 1000)).toBeLessThan(60);
    expect(sig![2]).toBe(
      createHmac('sha256', SECRET).update(`${sig![1]}.${req!.body}`).digest('hex'),
    );
    // the wrong key does not verify
    expect(sig![2]).not.toBe(
      createHmac('sha256', 'another').update(`${sig![1]}.${req!.body}`).digest('hex'),
    );
    const body = JSON.parse(req!.body);
    expect(body).toMatchObject({
      event: 'schedule.regression',
      outcome: 'regression',
      delivery: n.id,
      baseline: 'main',
      experiment: { url: `https://poolbench.example.com/experiments/${n.experimentId}` },
    });
    expect(body.cells[0].metrics[0]).toMatchObject({
      key: 'p99Ms',
      verdict: 'worse',
      changePercent: { estimate: 205 },
    });
    expect(await row(n.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
    });
    expect(await deliver()).toBe(0);
    expect(got).toHaveLength(1);
  });

  it('Slack format: a message with the outcome, the link and one line per regressed metric', async () => {
    await setWebhook(`${base}/slack`, 'slack');
    await pending();
    await deliver();
    const body = JSON.parse(got[0]!.body);
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toContain('*nightly*: regressed against baseline `main`');
    expect(body.text).toMatch(
      /<https:\/\/poolbench\.example\.com\/experiments\/\w+\|nightly · 2026-11-26 03:00 UTC>/,
    );
    expect(body.text).toContain(
      '• Latency p99 +205 % [+180 %, +240 %] (pgx 8 × burst, 5 vs 5 runs)',
    );
  });

  it('an internal address needs the team allowlist: refused without it, nothing sent, retried later', async () => {
    await db.allowedHost.deleteMany({ where: { teamId: ids.teamId } });
    const n = await pending();
    await deliver();
    expect(got).toHaveLength(0);
    const r = await row(n.id);
    expect(r).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
    expect(r.lastError).toMatch(
      /^webhook to 127\.0\.0\.1 is not allowed: it is a loopback address; an admin can add 127\.0\.0\.1 /,
    );
    expect(r.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 5000);
    await expect(
      checkWebhookHost('169.254.169.254', 80, ['169.254.0.0/16'], ['169.254.0.0/16']),
    ).rejects.toThrow(/^webhook to 169\.254\.169\.254 is never allowed/);
  });

  it.each(['169.254.169.254', '[::ffff:a9fe:a9fe]', '[64:ff9b::a9fe:a9fe]'])(
    'a never-allowed address (%s) fails at once, without retries',
    async (host) => {
      await db.allowedHost.create({
        data: { teamId: ids.teamId, pattern: '::/0', createdById: ids.userId },
      });
      await setWebhook(`http://${host}/latest/meta-data/`, 'generic');
      const n = await pending();
      await deliver();
      expect(got).toHaveLength(0);
      const r = await row(n.id);
      expect(r).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
      expect(r.lastError).toMatch(/^webhook to .* is never allowed: it is .*169\.254/);
    },
  );

  it('redirects are never followed: the next hop was never checked', async () => {
    answer = (path) =>
      path === '/hook'
        ? { status: 302, headers: { Location: `${base}/elsewhere` } }
        : { status: 200 };
    const n = await pending();
    await deliver();
    expect(got.map((g) => g.path)).toEqual(['/hook']);
    const { lastError } = await row(n.id);
    expect(lastError).toMatch(/HTTP 302 \(a redirect\); PoolBench does not follow redirects/);
    // shown in the schedules list: neither the webhook's path (a Slack URL's credential) nor the Location
    expect(lastError).not.toMatch(/\/hook|elsewhere/);
  });

  it('an error status is retried with backoff and delivered on a later attempt; gives up after MAX_ATTEMPTS', async () => {
    let fail = true;
    answer = () => ({ status: fail ? 503 : 200 });
    const n = await pending();
    const t0 = new Date();
    await deliver(t0);
    const r1 = await row(n.id);
    expect(r1).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 503,
      lastError: 'the webhook answered HTTP 503',
    });
    expect(r1.nextAttemptAt!.getTime() - t0.getTime()).toBe(10_000);
    expect(await deliver(new Date(t0.getTime() + 5_000))).toBe(0); // not due yet
    fail = false;
    await deliver(new Date(t0.getTime() + 11_000));
    expect(await row(n.id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lastStatusCode: 200,
      lastError: null,
    });

    fail = true;
    const m = await pending();
    let t = Date.now();
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      t += 3_600_000;
      await deliver(new Date(t));
    }
    expect(await row(m.id)).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      nextAttemptAt: null,
      lastError: 'the webhook answered HTTP 503',
    });
  });

  it('two workers at once send it once; a claim left by a killed worker is taken again after two minutes', async () => {
    await pending();
    const counts = await Promise.all([deliver(), deliver(), deliver()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(got).toHaveLength(1);
    // a worker killed mid-send leaves `sending` behind
    const m = await pending();
    await db.scheduleNotification.update({
      where: { id: m.id },
      data: { status: 'sending', claimedAt: new Date(Date.now() - 60_000), attempts: 1 },
    });
    expect(await deliver()).toBe(0);
    await db.scheduleNotification.update({
      where: { id: m.id },
      data: { claimedAt: new Date(Date.now() - 150_000) },
    });
    expect(await deliver()).toBe(1);
    expect(await row(m.id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('a URL with credentials is never called and fails at once', async () => {
    await setWebhook(`http://user:pw@127.0.0.1:${new URL(base).port}/hook`, 'generic');
    const n = await pending();
    await deliver();
    expect(got).toHaveLength(0);
    const r = await row(n.id);
    expect(r).toMatchObject({ status: 'failed', attempts: 1 });
    expect(r.lastError).toMatch(/credentials/);
    expect(r.lastError).not.toContain('pw');
  });

  it("a webhook at one of the installation's own services is never called and fails at once", async () => {
    // the team allows all of loopback; the worker's REDIS_URL is this test's
    await db.allowedHost.create({
      data: { teamId: ids.teamId, pattern: '127.0.0.0/8', createdById: ids.userId },
    });
    const redisPort = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799').port || '6379';
    await setWebhook(`http://localhost:${redisPort}/hook`, 'generic');
    const n = await pending();
    await deliver();
    expect(got).toHaveLength(0);
    const r = await row(n.id);
    expect(r).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    expect(r.lastError).toMatch(
      /^webhookUrl: localhost:\d+ \((127\.0\.0\.1|::1)\) is the installation's own Redis \(REDIS_URL\)/,
    );
  });
});
