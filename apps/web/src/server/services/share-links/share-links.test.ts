import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { insertSyntheticRun, syntheticExperiment } from '../compare/testing/synthetic-runs';
import { AUTH_CACHE_MAX_MS } from '../auth/auth-cache';
import { GuessLimiter } from './rate-limit';
import { sharedExportResponse, sharedPageResponse } from './shared-response';
import { hashShareToken } from './token';

/** Real Postgres and Redis: share tokens see their own resource and nothing else. */
describe('share links', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  let B: TeamFixture;
  let runA: string;
  let runA2: string;
  let runB: string;
  let exp: Awaited<ReturnType<typeof syntheticExperiment>>;
  const limiter = () =>
    new GuessLimiter(() => services.redis, 5, 60, `pbtest-share-${randomBytes(4).toString('hex')}`);
  const h = (ip: string) => new Headers({ 'x-forwarded-for': ip });

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_share'));
    services = makeServices();
    A = await makeTeam(db, 'a');
    B = await makeTeam(db, 'b');
    exp = await syntheticExperiment(db, A.teamId, A.targetId, A.scenarioId, ['lazy', 'prewarm'], 2);
    const base = {
      teamId: A.teamId,
      experimentId: exp.experimentId,
      targetId: A.targetId,
      scenarioId: A.scenarioId,
      scenarioName: 'burst',
      seconds: 20,
      rps: 50,
    };
    runA = await insertSyntheticRun(db, {
      ...base,
      poolConfigId: exp.poolConfigs[0]!.id,
      poolConfigName: 'lazy-alpha',
      repeatIndex: 0,
      latencyMs: 12,
      seed: 1,
    });
    runA2 = await insertSyntheticRun(db, {
      ...base,
      poolConfigId: exp.poolConfigs[1]!.id,
      poolConfigName: 'prewarm-beta',
      repeatIndex: 0,
      latencyMs: 8,
      seed: 2,
    });
    const expB = await syntheticExperiment(db, B.teamId, B.targetId, B.scenarioId, ['lazy'], 1);
    runB = await insertSyntheticRun(db, {
      ...base,
      teamId: B.teamId,
      experimentId: expB.experimentId,
      targetId: B.targetId,
      scenarioId: B.scenarioId,
      poolConfigId: expB.poolConfigs[0]!.id,
      poolConfigName: 'other-team-config',
      repeatIndex: 0,
      latencyMs: 30,
      seed: 3,
    });
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  const owner = () => callerFor(db, services, A.users.owner, A.teamId);

  it('stores only the sha256 of a 256-bit token and shows results, never scripts or target URLs', async () => {
    const link = await owner().shareLink.create({
      target: { kind: 'run', runId: runA },
      title: 'Lazy run',
    });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await db.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.tokenHash).toBe(hashShareToken(link.token));
    expect(JSON.stringify(row)).not.toContain(link.token);

    const res = await sharedPageResponse({ db, limiter: limiter() }, link.token, h('10.0.0.1'));
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex');
    expect(html).toContain('og:title" content="Lazy run"');
    expect(html).toMatch(/og:description" content="lazy-alpha #1: [\d,.]+ req\/s, p95 /);
    expect(html).toContain('lazy-alpha');
    expect(html).not.toContain('prewarm-beta');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('secret-path');
    expect(html).not.toContain('secret script');
    expect(html).not.toContain('127.0.0.1');
    expect((await db.shareLink.findUniqueOrThrow({ where: { id: link.id } })).accessCount).toBe(1);
  });

  it('a token for run A cannot read run B (same team or another team)', async () => {
    const { token } = await owner().shareLink.create({
      target: { kind: 'run', runId: runA },
      title: 'A only',
    });
    const deps = { db, limiter: limiter() };
    const url = (q: string) => new URL(`http://x/api/share/${token}/export?${q}`);
    const ownCsv = await sharedExportResponse(deps, token, url('format=csv'), h('10.0.0.2'));
    expect(ownCsv.status).toBe(200);
    const csv = await ownCsv.text();
    expect(csv.split('\r\n')[0]).toBe(
      'group,run_id,second,requests,failed,p50Ms,p95Ms,p99Ms,connectingP95Ms,cpuPercent,rssBytes,poolInUse,poolWaitMs',
    );
    expect(csv).toContain(runA);
    expect(csv).not.toContain(runA2);
    expect(
      (await sharedExportResponse(deps, token, url(`format=json&run=${runA}`), h('10.0.0.2')))
        .status,
    ).toBe(200);
    for (const other of [runA2, runB]) {
      const res = await sharedExportResponse(
        deps,
        token,
        url(`format=json&run=${other}`),
        h('10.0.0.2'),
      );
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(other === runB ? 'other-team-config' : 'prewarm-beta');
    }
  });

  it('CSV exports of a share link neutralise formula cells and keep numbers numeric', async () => {
    const evil = await syntheticExperiment(
      db,
      A.teamId,
      A.targetId,
      A.scenarioId,
      ['=HYPERLINK("http://evil.example/x")'],
      1,
    );
    const runEvil = await insertSyntheticRun(db, {
      teamId: A.teamId,
      experimentId: evil.experimentId,
      targetId: A.targetId,
      scenarioId: A.scenarioId,
      scenarioName: 'burst',
      seconds: 5,
      rps: 50,
      poolConfigId: evil.poolConfigs[0]!.id,
      poolConfigName: evil.poolConfigs[0]!.name,
      repeatIndex: 0,
      latencyMs: 5,
      seed: 9,
    });
    const { token } = await owner().shareLink.create({
      target: { kind: 'run', runId: runEvil },
      title: 'evil names',
    });
    for (const format of ['csv', 'summary-csv']) {
      const res = await sharedExportResponse(
        { db, limiter: limiter() },
        token,
        new URL(`http://x/e?format=${format}`),
        h('10.0.0.5'),
      );
      expect(res.status).toBe(200);
      const rows = (await res.text()).trim().split('\r\n').slice(1);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        // the group cell opens as text in a spreadsheet, never as a formula
        expect(row.startsWith(`"'=HYPERLINK(`), row).toBe(true);
        // the numeric cells after the quoted group and the run id stay bare numbers
        const cells = row.slice(row.indexOf(runEvil) + runEvil.length + 1).split(',');
        expect(
          cells.some((c) => /^-?\d+(\.\d+)?$/.test(c)),
          row,
        ).toBe(true);
        expect(
          cells.every((c) => !c.startsWith("'")),
          row,
        ).toBe(true);
      }
    }
  });

  it('a comparison link shows exactly its selection; other teams cannot share our runs', async () => {
    const selection = {
      items: [
        { kind: 'run' as const, runId: runA },
        { kind: 'run' as const, runId: runA2 },
      ],
      window: { from: 5, to: 15 },
    };
    const { token } = await owner().shareLink.create({
      target: { kind: 'comparison', selection },
      title: 'lazy vs prewarm',
      expiresInDays: 7,
    });
    const res = await sharedExportResponse(
      { db, limiter: limiter() },
      token,
      new URL(`http://x/e?format=json`),
      h('10.0.0.3'),
    );
    const json = (await res.json()) as {
      groups: Array<{ runIds: string[] }>;
      seconds: Array<{ second: number }>;
      window: unknown;
    };
    expect(json.groups.flatMap((g) => g.runIds).sort()).toEqual([runA, runA2].sort());
    expect(json.window).toEqual({ from: 5, to: 15 });
    expect(Math.min(...json.seconds.map((s) => s.second))).toBe(5);
    expect(Math.max(...json.seconds.map((s) => s.second))).toBe(14);
    await expect(
      callerFor(db, services, B.users.owner, B.teamId).shareLink.create({
        target: { kind: 'comparison', selection },
        title: 'stolen',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      callerFor(db, services, B.users.owner, B.teamId).shareLink.create({
        target: { kind: 'run', runId: runA },
        title: 'stolen',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('an experiment link shows its hypotheses with their decisions, and a new decision changes the ETag', async () => {
    const [lazy, prewarm] = exp.poolConfigs;
    await db.hypothesis.create({
      data: {
        experimentId: exp.experimentId,
        position: 0,
        basePoolConfigId: lazy!.id,
        baseScenarioId: A.scenarioId,
        candidatePoolConfigId: prewarm!.id,
        candidateScenarioId: A.scenarioId,
        metric: 'p95Ms',
        expect: 'better',
        band: 20,
        bandUnit: 'percent',
        statement: 'prewarm has a lower p95 latency than lazy by at least 20 %',
        claim: 'the <seed> said so',
      },
    });
    const { token } = await owner().shareLink.create({
      target: { kind: 'experiment', experimentId: exp.experimentId },
      title: 'With claims',
    });
    const deps = { db, limiter: limiter() };
    const first = await sharedPageResponse(deps, token, h('10.0.0.5'));
    const html = await first.text();
    expect(html).toContain('<h2>Hypotheses</h2>');
    expect(html).toContain('prewarm has a lower p95 latency than lazy by at least 20 %');
    expect(html).toContain('“the &lt;seed&gt; said so”');
    expect(html).toContain('Pending');
    await db.hypothesis.updateMany({
      where: { experimentId: exp.experimentId },
      data: {
        status: 'holds',
        change: -35,
        low: -41,
        high: -28,
        changeUnit: 'percent',
        p: 0.008,
        reason: 'the interval lies beyond the ±20 % band',
        decidedAt: new Date(),
      },
    });
    // a token's page is kept for at most AUTH_CACHE_MAX_MS: the decision shows once it passed
    const later = Date.now() + AUTH_CACHE_MAX_MS + 1;
    const again = await sharedPageResponse(
      { ...deps, now: () => later },
      token,
      new Headers({
        'x-forwarded-for': '10.0.0.5',
        'if-none-match': first.headers.get('etag') ?? '',
      }),
    );
    expect(again.status).toBe(200);
    const decided = await again.text();
    expect(decided).toContain('Holds');
    expect(decided).toContain('−35 % [−41, −28]');
    await db.hypothesis.deleteMany({ where: { experimentId: exp.experimentId } });
  });

  it('revoked and expired links answer 404, like unknown ones', async () => {
    const { id, token } = await owner().shareLink.create({
      target: { kind: 'experiment', experimentId: exp.experimentId },
      title: 'Experiment',
    });
    const deps = { db, limiter: limiter() };
    expect((await sharedPageResponse(deps, token, h('10.0.0.4'))).status).toBe(200);
    await expect(
      callerFor(db, services, B.users.owner, B.teamId).shareLink.revoke({ id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await owner().shareLink.revoke({ id });
    expect((await sharedPageResponse(deps, token, h('10.0.0.4'))).status).toBe(404);
    expect(
      (await sharedExportResponse(deps, token, new URL('http://x/e?format=csv'), h('10.0.0.4')))
        .status,
    ).toBe(404);
    const list = await owner().shareLink.list();
    expect(list.find((l) => l.id === id)?.state).toBe('revoked');

    const expiring = await owner().shareLink.create({
      target: { kind: 'run', runId: runA },
      title: 'soon gone',
      expiresInDays: 1,
    });
    await db.shareLink.update({
      where: { id: expiring.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await sharedPageResponse(deps, expiring.token, h('10.0.0.4'))).status).toBe(404);
  });

  const guess = () => randomBytes(32).toString('base64url');
  const fresh = (hops: number, perClient: number, global: number) =>
    new GuessLimiter(
      () => services.redis,
      perClient,
      60,
      `pbtest-share-${randomBytes(4).toString('hex')}`,
      hops,
      global,
    );

  it('behind a trusted proxy, guessing is limited per client address: 429 after the limit, even for a valid token', async () => {
    const { token } = await owner().shareLink.create({
      target: { kind: 'run', runId: runA },
      title: 'valid',
    });
    const deps = { db, limiter: fresh(1, 5, 1000) }; // one proxy; 5 failures per client per 60 s
    // the client rotates what it sends itself; the proxy appends the address it really saw
    const viaProxy = (clientSent: string, seen: string) =>
      new Headers({ 'x-forwarded-for': `${clientSent}, ${seen}` });
    for (let i = 0; i < 5; i++)
      expect(
        (await sharedPageResponse(deps, guess(), viaProxy(`10.9.${i}.1`, '203.0.113.9'))).status,
      ).toBe(404);
    const blocked = await sharedPageResponse(deps, token, viaProxy('10.9.99.1', '203.0.113.9'));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('600');
    expect(await blocked.text()).toContain('from your address');
    expect(
      (
        await sharedExportResponse(
          deps,
          token,
          new URL('http://x/e?format=csv'),
          viaProxy('1.1.1.1', '203.0.113.9'),
        )
      ).status,
    ).toBe(429);
    // another address is unaffected, even when it claims to be the blocked one; successful views never count
    for (let i = 0; i < 8; i++)
      expect(
        (await sharedPageResponse(deps, token, viaProxy('203.0.113.9', '203.0.113.10'))).status,
      ).toBe(200);
  });

  it('without trusted proxies, rotating X-Forwarded-For does not dodge the limit: a global miss budget answers 429', async () => {
    const deps = { db, limiter: fresh(0, 5, 10) }; // 10 misses of everyone per 60 s
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await sharedPageResponse(deps, guess(), h(`198.18.${i}.${i + 1}`))).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(404));
    expect(statuses.slice(10)).toEqual(Array(30).fill(429));
    const res = await sharedExportResponse(
      deps,
      guess(),
      new URL('http://x/e?format=csv'),
      h('198.18.200.1'),
    );
    expect(res.status).toBe(429);
    expect((await res.json()).detail).toContain('recently');
  });

  it("without trusted proxies, forging a victim's address never makes the victim's valid link 429", async () => {
    const { token } = await owner().shareLink.create({
      target: { kind: 'run', runId: runA },
      title: 'victim',
    });
    const deps = { db, limiter: fresh(0, 5, 10) };
    const victim = h('198.51.100.50');
    // the attacker sends the victim's address as its own, past the per-client and the global budget
    for (let i = 0; i < 30; i++) await sharedPageResponse(deps, guess(), victim);
    expect((await sharedPageResponse(deps, guess(), victim)).status).toBe(429);
    for (let i = 0; i < 3; i++)
      expect((await sharedPageResponse(deps, token, victim)).status).toBe(200);
    expect(
      (await sharedExportResponse(deps, token, new URL('http://x/e?format=csv'), victim)).status,
    ).toBe(200);
    expect((await sharedPageResponse(deps, token, new Headers())).status).toBe(200);
  });
});

describe('clientIp', () => {
  it('takes the address the outermost trusted proxy appended, not what the client claims', async () => {
    const { clientIp } = await import('./rate-limit');
    const forwarded = (v: string) => new Headers({ 'x-forwarded-for': v });
    // one proxy: the last entry; the client's forged entries before it are ignored
    expect(clientIp(forwarded('1.2.3.4, 198.51.100.7'), 1)).toBe('198.51.100.7');
    expect(clientIp(forwarded('9.9.9.9, 1.2.3.4, 198.51.100.7'), 1)).toBe('198.51.100.7');
    // two proxies (CDN, then a load balancer): the CDN saw the client, the balancer saw the CDN
    expect(clientIp(forwarded('1.2.3.4, 198.51.100.7, 10.0.0.2'), 2)).toBe('198.51.100.7');
    expect(clientIp(forwarded('6.6.6.6, 1.2.3.4, 198.51.100.7, 10.0.0.2'), 2)).toBe('198.51.100.7');
    // fewer entries than proxies (a hop that did not append): the first one
    expect(clientIp(forwarded('198.51.100.7'), 3)).toBe('198.51.100.7');
    expect(clientIp(forwarded(' , '), 1)).toBe('direct');
    expect(clientIp(new Headers({ 'x-real-ip': '198.51.100.8' }), 1)).toBe('198.51.100.8');
    expect(clientIp(new Headers(), 1)).toBe('direct');
  });

  it('the limiter trusts an address only behind configured proxies; with none there is no per-client key', async () => {
    const { GuessLimiter } = await import('./rate-limit');
    const h = new Headers({ 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.0.0.2' });
    expect(new GuessLimiter(null).clientKey(h)).toBeNull();
    expect(
      new GuessLimiter(null).clientKey(new Headers({ 'x-forwarded-for': '198.51.100.7' })),
    ).toBeNull();
    expect(new GuessLimiter(null, 5, 60, 'p', 1).clientKey(h)).toBe('10.0.0.2');
    expect(new GuessLimiter(null, 5, 60, 'p', 2).clientKey(h)).toBe('198.51.100.7');
  });
});
