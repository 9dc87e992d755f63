import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneExpiredSeconds, type Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { insertSyntheticRun, syntheticExperiment } from '../compare/testing/synthetic-runs';
import { GuessLimiter } from '../share-links/rate-limit';
import { recentSharedPage, sharedPageResponse } from '../share-links/shared-response';
import { flushViewCounts } from '../share-links/resolve-share-link';
import { cachedExperimentPivot } from '../compare/cached-pivot';
import { runPageBytes } from '../runs/run-page-data';
import { comparePageBytes, forgetTeamComparisons } from '../compare/compare-view';
import { createPubSubHub, producerConnection, workerConnection } from '@poolbench/queue';
import { AUTH_CACHE_MAX_MS, AUTH_FORGET_CHANNEL, createProcessAuth } from '../auth/auth-cache';
import { gunzipSync } from 'node:zlib';
import superjson from 'superjson';

/**
 * The caches of finished-run data (share page, compare view, run series) on real Postgres and
 * Redis: ETag and 304, invalidation by what can still change (runs appended to an experiment,
 * retention pruning seconds, a revoked link), and authorization on every request with a warm cache.
 */
describe('caches of finished-run data', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  let B: TeamFixture;
  let exp: Awaited<ReturnType<typeof syntheticExperiment>>;
  let runId: string;
  let run2 = '';
  const limiter = () => new GuessLimiter(null, 5, 60, 'pbtest-page-cache');
  const page = (token: string, etag?: string, now?: () => number) =>
    sharedPageResponse(
      { db, limiter: limiter(), now },
      token,
      new Headers(etag ? { 'if-none-match': etag } : {}),
    );
  const base = () => ({
    teamId: A.teamId,
    experimentId: exp.experimentId,
    targetId: A.targetId,
    scenarioId: A.scenarioId,
    scenarioName: 'burst',
    seconds: 30,
    rps: 50,
    latencyMs: 12,
  });

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_page_cache'));
    services = makeServices();
    A = await makeTeam(db, 'a');
    B = await makeTeam(db, 'b');
    exp = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['lazy'], 2);
    runId = await insertSyntheticRun(db, {
      ...base(),
      poolConfigId: exp.poolConfigs[0]!.id,
      poolConfigName: 'lazy',
      repeatIndex: 0,
      seed: 1,
    });
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });
  const owner = () => callerFor(db, services, A.users.owner, A.teamId);
  /** A page asked for after the bound of the share page's recent views (`AUTH_CACHE_MAX_MS`). */
  const pageLater = (token: string, etag?: string) => {
    const later = Date.now() + AUTH_CACHE_MAX_MS + 1;
    return page(token, etag, () => later);
  };

  it('the share page has an ETag; If-None-Match with it is 304 without the page; a revoked link is 404 even then', async () => {
    const link = await owner().shareLink.create({
      target: { kind: 'run', runId },
      title: 'cached run',
    });
    const first = await page(link.token);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const html = await first.text();
    const again = await page(link.token);
    expect([again.status, again.headers.get('etag'), await again.text()]).toEqual([
      200,
      etag,
      html,
    ]);
    const revalidated = await page(link.token, etag);
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect((await page(link.token, '"something-else"')).status).toBe(200);

    await owner().shareLink.revoke({ id: link.id });
    // revoking forgets the link's recent view at once: 404 with a warm cache
    expect((await page(link.token, etag)).status).toBe(404);
    expect((await page(link.token)).status).toBe(404);
  });

  it('an experiment extended with more runs gets a new ETag and shows them', async () => {
    const link = await owner().shareLink.create({
      target: { kind: 'experiment', experimentId: exp.experimentId },
      title: 'cached experiment',
    });
    const before = await page(link.token);
    const etag = before.headers.get('etag')!;
    expect(await before.text()).toContain('1 run');
    run2 = await insertSyntheticRun(db, {
      ...base(),
      poolConfigId: exp.poolConfigs[0]!.id,
      poolConfigName: 'lazy',
      repeatIndex: 1,
      seed: 2,
      latencyMs: 30,
    });
    // a token's page is kept for at most the bound: the new run shows once it has passed
    const after = await pageLater(link.token, etag);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(await after.text()).toContain('2 runs');
  });

  it("retention pruning a run's seconds invalidates its cached series, comparison and page", async () => {
    const link = await owner().shareLink.create({
      target: { kind: 'run', runId },
      title: 'pruned run',
    });
    const before = await page(link.token);
    const etag = before.headers.get('etag')!;
    const series = await owner().run.series({ id: runId });
    expect(series.points.length).toBeGreaterThan(0);
    const cmp = await owner().compare.get({
      selection: {
        items: [
          { kind: 'run', runId },
          { kind: 'run', runId: run2 },
        ],
      },
    });
    const points = (c: typeof cmp) => JSON.stringify(c.series).length;
    const seriesBefore = points(cmp);

    // the product's own retention: a 1-day window, measured from a month ahead
    await db.team.update({ where: { id: A.teamId }, data: { retentionDays: 1 } });
    const pruned = await pruneExpiredSeconds(db, new Date(Date.now() + 30 * 86_400_000));
    expect(pruned.runs).toBeGreaterThan(0);

    expect((await owner().run.series({ id: runId })).points).toEqual([]);
    // the comparison no longer draws the pruned seconds
    expect(
      points(
        await owner().compare.get({
          selection: {
            items: [
              { kind: 'run', runId },
              { kind: 'run', runId: run2 },
            ],
          },
        }),
      ),
    ).toBeLessThan(seriesBefore);
    const after = await pageLater(link.token, etag);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it('another team cannot read a run or comparison that is in the cache', async () => {
    await owner().run.series({ id: runId });
    await owner().compare.get({
      selection: {
        items: [
          { kind: 'run', runId },
          { kind: 'run', runId: run2 },
        ],
      },
    });
    const other = callerFor(db, services, B.users.owner, B.teamId);
    await expect(other.run.series({ id: runId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      other.compare.get({
        selection: {
          items: [
            { kind: 'run', runId },
            { kind: 'run', runId: run2 },
          ],
        },
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("the experiment pivot is cached until a run is added, and only for the experiment's team", async () => {
    const e2 = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['one', 'two'], 2);
    const add = (i: number, rep: number) =>
      insertSyntheticRun(db, {
        ...base(),
        experimentId: e2.experimentId,
        poolConfigId: e2.poolConfigs[i]!.id,
        poolConfigName: e2.poolConfigs[i]!.name,
        repeatIndex: rep,
        seed: 10 + i + rep,
      });
    await add(0, 0);
    await add(1, 0);
    const n = async () =>
      (await cachedExperimentPivot(db, A.teamId, e2.experimentId, 'p95Ms')).rows.map(
        (r) => r.cells[0]!.n,
      );
    expect(await n()).toEqual([1, 1]);
    expect(await n()).toEqual([1, 1]);
    await add(1, 1);
    expect(await n()).toEqual([1, 2]);
    await expect(
      cachedExperimentPivot(db, B.teamId, e2.experimentId, 'p95Ms'),
    ).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('views of one link arriving at once are all counted (one row update at a time)', async () => {
    const link = await owner().shareLink.create({
      target: { kind: 'run', runId: run2 },
      title: 'counted',
    });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => page(link.token).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    let count = 0;
    for (let i = 0; i < 50 && count < 20; i++) {
      count = (await db.shareLink.findUniqueOrThrow({ where: { id: link.id } })).accessCount;
      if (count < 20) await new Promise((r) => setTimeout(r, 50));
    }
    expect(count).toBe(20);
  });

  it("a cold crowd on a new link waits for the one route deciding it and gets that route's page", async () => {
    const link = await owner().shareLink.create({
      target: { kind: 'run', runId: run2 },
      title: 'cold crowd',
    });
    const headers = new Headers();
    const fast = () => recentSharedPage({ db, limiter: limiter() }, link.token, headers);
    // nothing decided yet, nothing in flight: the fast path hands the request to a route
    expect(await fast()).toBeNull();
    const route = page(link.token);
    // requests arriving while that route reads and renders: answered with its page, from memory
    const crowd = await Promise.all(Array.from({ length: 15 }, fast));
    const first = await route;
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(crowd.map((a) => a?.status)).toEqual(Array(15).fill(200));
    for (const a of crowd) expect(String(a!.body)).toBe(html);
    await flushViewCounts();
    expect((await db.shareLink.findUniqueOrThrow({ where: { id: link.id } })).accessCount).toBe(16);
    // a crowd on a link that is no more: the route decides 404 and each waiter goes its own way
    const gone = await owner().shareLink.create({
      target: { kind: 'run', runId: run2 },
      title: 'x',
    });
    await owner().shareLink.revoke({ id: gone.id });
    const refused = page(gone.token);
    const waiters = await Promise.all(
      Array.from({ length: 3 }, () =>
        recentSharedPage({ db, limiter: limiter() }, gone.token, headers),
      ),
    );
    expect((await refused).status).toBe(404);
    expect(waiters).toEqual([null, null, null]);
  });

  it('views held back in a pause are written at once when the process is about to exit', async () => {
    const link = await owner().shareLink.create({
      target: { kind: 'run', runId: run2 },
      title: 'flushed',
    });
    // the first view's write is in flight while the rest arrive; all are answered before it ends
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () => page(link.token).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    // no waiting for the pause: after the flush every view is in the row
    await flushViewCounts();
    expect((await db.shareLink.findUniqueOrThrow({ where: { id: link.id } })).accessCount).toBe(12);
  });

  it("a finished run's page is tRPC's run.get and run.series, served as the same bytes until its row changes", async () => {
    const open = (b: { gzip: Buffer }) =>
      superjson.deserialize(JSON.parse(gunzipSync(b.gzip).toString('utf8')));
    const first = await runPageBytes(db, A.teamId, runId, 300);
    expect(first.finished).toBe(true);
    // ground truth: what the procedures send, through the same transformer
    expect(open(first)).toEqual({
      run: await owner().run.get({ id: runId }),
      series: await owner().run.series({ id: runId, maxPoints: 300 }),
    });
    const again = await runPageBytes(db, A.teamId, runId, 300);
    expect(again.etag).toBe(first.etag);
    expect(again.gzip).toBe(first.gzip); // from memory, not recomputed
    expect((await runPageBytes(db, A.teamId, runId, 100)).etag).not.toBe(first.etag);

    await owner().run.updateNotes({ id: runId, notes: 'pool warmed by hand' });
    const edited = await runPageBytes(db, A.teamId, runId, 300);
    expect(edited.etag).not.toBe(first.etag);
    expect(open(edited)).toMatchObject({ run: { notes: 'pool warmed by hand' } });

    await db.target.update({ where: { id: A.targetId }, data: { name: 'renamed target' } });
    const renamed = await runPageBytes(db, A.teamId, runId, 300);
    expect(renamed.etag).not.toBe(edited.etag);
    expect(open(renamed)).toMatchObject({ run: { target: { name: 'renamed target' } } });

    // another team's id is not found however warm the cache
    await expect(runPageBytes(db, B.teamId, runId, 300)).rejects.toThrow(/not found/i);
  });

  it("a live run's page is computed on every request and never kept", async () => {
    const live = A.runIds[0]!;
    await db.run.update({
      where: { id: live },
      data: { status: 'running', startedAt: new Date() },
    });
    const a = await runPageBytes(db, A.teamId, live, 300);
    const b = await runPageBytes(db, A.teamId, live, 300);
    expect(a.finished).toBe(false);
    expect(b.gzip).not.toBe(a.gzip);
  });

  it("the compare view's bytes are compare.get's answer, kept while every run is finished", async () => {
    const open = (b: { gzip: Buffer }) =>
      superjson.deserialize(JSON.parse(gunzipSync(b.gzip).toString('utf8')));
    const selection = {
      items: [
        { kind: 'run' as const, runId },
        { kind: 'run' as const, runId: run2 },
      ],
    };
    const first = await comparePageBytes(db, A.teamId, selection, 300);
    expect(first.finished).toBe(true);
    expect(open(first)).toEqual(await owner().compare.get({ selection }));
    const again = await comparePageBytes(db, A.teamId, selection, 300);
    expect(again.gzip).toBe(first.gzip);
    expect(again.etag).toBe(first.etag);
    // another team's runs are not found however warm the cache
    await expect(comparePageBytes(db, B.teamId, selection, 300)).rejects.toThrow(/not found/i);
    // a change no mutation announced (a run live again) waits for the bound …
    await db.run.update({ where: { id: run2 }, data: { status: 'running' } });
    expect((await comparePageBytes(db, A.teamId, selection, 300)).gzip).toBe(first.gzip);
    // … and any mutation of the team's data through the product forgets it at once
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';
    const hub = createPubSubHub(() => workerConnection(url));
    const pub = producerConnection(url);
    try {
      const here = createProcessAuth({
        hub,
        publish: (c, m) => pub.publish(c, m),
        ttlMs: AUTH_CACHE_MAX_MS,
      });
      await callerFor(db, services, A.users.owner, A.teamId, {
        forgetAuth: here.forget,
      }).run.updateNotes({ id: runId, notes: 'compared again' });
      const live = await comparePageBytes(db, A.teamId, selection, 300);
      expect(live.finished).toBe(false);
      // with a live run it is computed on every request
      expect((await comparePageBytes(db, A.teamId, selection, 300)).gzip).not.toBe(live.gzip);
    } finally {
      await hub.close();
      pub.disconnect();
      await db.run.update({ where: { id: run2 }, data: { status: 'succeeded' } });
    }
    forgetTeamComparisons(A.teamId);
  });

  it('a share link revoked elsewhere is refused once the message arrives, or at the bound', async () => {
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';
    const hub = createPubSubHub(() => workerConnection(url));
    const pub = producerConnection(url);
    // this process's auth cache, listening for revocations made in other processes
    const here = createProcessAuth({
      hub,
      publish: (c, m) => pub.publish(c, m),
      ttlMs: AUTH_CACHE_MAX_MS,
    });
    await here.session('cookie=share-test', () => Promise.resolve(null));
    try {
      const made = async () => {
        const link = await owner().shareLink.create({
          target: { kind: 'run', runId },
          title: 'revoked elsewhere',
        });
        expect((await page(link.token)).status).toBe(200);
        // revoked by another process: only the database row and, maybe, a message
        await db.shareLink.update({ where: { id: link.id }, data: { revokedAt: new Date() } });
        return link;
      };

      const told = await made();
      expect((await page(told.token)).status).toBe(200); // the recent view, inside the bound
      await pub.publish(AUTH_FORGET_CHANNEL, JSON.stringify({ shareLinkId: told.id }));
      let status = 200;
      for (let i = 0; i < 100 && status === 200; i++) {
        status = (await page(told.token)).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 10));
      }
      expect(status).toBe(404);

      const silent = await made();
      const now = Date.now();
      expect((await page(silent.token, undefined, () => now + AUTH_CACHE_MAX_MS / 2)).status).toBe(
        200,
      );
      expect((await page(silent.token, undefined, () => now + AUTH_CACHE_MAX_MS + 1)).status).toBe(
        404,
      );
    } finally {
      await hub.close();
      pub.disconnect();
    }
  });

  it("a distributed run's second before the leader's first (second -1) is on its page", async () => {
    const id = await insertSyntheticRun(db, {
      ...base(),
      poolConfigId: exp.poolConfigs[0]!.id,
      poolConfigName: 'lazy',
      repeatIndex: 5,
      seed: 9,
    });
    // a generator that started a moment before the leader stores its first second as -1
    await db.runSecond.updateMany({ where: { runId: id, second: 0 }, data: { second: -1 } });
    const bytes = await runPageBytes(db, A.teamId, id, 300);
    const page = superjson.deserialize<{ series: { points: Array<{ second: number }> } }>(
      JSON.parse(gunzipSync(bytes.gzip).toString('utf8')),
    );
    expect(page.series.points[0]!.second).toBe(-1);
    expect((await owner().run.series({ id })).points[0]!.second).toBe(-1);
  });
});
