import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '@poolbench/contracts';
import { createDb, type Db } from '../client';
import { seedTestTeam, withTempDatabase } from '../test-db';
import { onCorruptJson, type CorruptJsonReport } from './json-column';
import {
  parseIdempotencyKey,
  parsePoolConfig,
  parseRun,
  parseRunSecond,
  parseScenarioRow,
  parseTarget,
} from './parse-rows';
import { toJson } from './to-json';
import { scenarioRowData } from '../services/scenario-row';

// what buildRunSummary (@poolbench/stats) makes of 300 requests over 2 s with an empty histogram
const SUMMARY: RunSummary = {
  requests: 300,
  failed: 2,
  errorRate: 2 / 300,
  rps: 150,
  durationMs: 2000,
  seconds: 3,
  bytesSent: 3000,
  bytesReceived: 9000,
  iterations: 300,
  droppedIterations: 0,
  vusMax: 5,
  statusCounts: { '200': 298, '503': 2 },
  latency: null,
  waiting: null,
  connecting: null,
  tlsHandshaking: null,
  blocked: null,
  iteration: null,
  resources: {
    cpuMeanPercent: null,
    cpuPeakPercent: null,
    rssMeanBytes: null,
    rssPeakBytes: null,
    poolWaitMsMean: null,
    poolWaitMsPeak: null,
    poolInUsePeak: null,
    poolAcquireTimeouts: null,
    dbConnectionsPeak: null,
    dbNewConnsTotal: null,
    dbTooManyClients: null,
  },
  loadStartMs: 1_700_000_000_000,
  loadEndMs: 1_700_000_002_000,
};
const ENV = {
  poolbenchVersion: '0.1.0',
  k6Version: 'k6 v1.8.1',
  labTargetVersion: null,
  nodeVersion: 'v20',
  workerId: 'w1',
  host: 'h',
  kernel: '6',
  cpuModel: 'cpu',
  cpuCount: 2,
  memoryBytes: 1,
  loadAvg1mAtStart: 0.1,
  startedAt: '2026-11-23T00:00:00.000Z',
  network: { pins: [{ host: '127.0.0.1', port: 1, address: '127.0.0.1' }] },
};
const THRESHOLDS = [{ metric: 'http_req_failed', expr: 'rate<0.01', observed: 0.0067, pass: true }];
const PC_SNAP = {
  id: 'pc1',
  name: 'lazy',
  strategy: 'lazy',
  params: { maxConns: 4 },
  instanceCount: 1,
};
const SC_SNAP = {
  id: 'sc1',
  name: 'burst',
  templateId: 'sustained',
  params: { params: { vus: 1, durationMs: 1000 }, requests: [{ path: '/health' }] },
  thresholds: [{ metric: 'http_req_failed', expr: 'rate<0.01' }],
};
const T_SNAP = {
  id: 't1',
  name: 'Lab',
  kind: 'managed',
  baseUrls: [],
  managed: {
    program: 'lab-target',
    setup: { rows: 100, fields: 1, roles: 1, permissions: 1, shards: 1 },
  },
  requestDefaults: { method: 'GET', path: '/health' },
};

describe('typed JSON columns: one schema per column, parsed where read, checked where written', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let ids: Awaited<ReturnType<typeof seedTestTeam>>;
  let runId: string;
  const reports: CorruptJsonReport[] = [];

  beforeAll(async () => {
    const t = await withTempDatabase('json_columns');
    dispose = t.dispose;
    db = createDb({ url: t.url, max: 2 });
    ids = await seedTestTeam(db);
    onCorruptJson((r) => reports.push(r));
    const pc = await db.poolConfig.findFirstOrThrow({ where: { teamId: ids.teamId } });
    const sc = await db.scenario.findFirstOrThrow({ where: { teamId: ids.teamId } });
    const e = await db.experiment.create({
      data: { teamId: ids.teamId, targetId: ids.targetId, name: 'json', repeats: 1 },
    });
    const run = await db.run.create({
      data: {
        teamId: ids.teamId,
        experimentId: e.id,
        targetId: ids.targetId,
        poolConfigId: pc.id,
        scenarioId: sc.id,
        repeatIndex: 0,
        sequence: 0,
        status: 'succeeded',
        poolConfigSnapshot: toJson.poolConfigSnapshot(PC_SNAP),
        scenarioSnapshot: toJson.scenarioSnapshot(SC_SNAP),
        targetSnapshot: toJson.targetSnapshot(T_SNAP),
        environment: toJson.runEnvironment(ENV),
        summary: toJson.runSummary(SUMMARY),
        thresholdResults: toJson.thresholdResults(THRESHOLDS),
      },
    });
    runId = run.id;
  });
  afterAll(async () => {
    onCorruptJson(null);
    await db?.$disconnect();
    await dispose?.();
  });

  it('Run: summary, environment, thresholdResults and the three snapshots round-trip through Postgres', async () => {
    const r = parseRun(await db.run.findUniqueOrThrow({ where: { id: runId } }));
    expect(r.summary).toEqual(SUMMARY);
    expect(r.environment).toEqual(ENV);
    expect(r.thresholdResults).toEqual(THRESHOLDS);
    expect(r.poolConfigSnapshot).toEqual(PC_SNAP);
    expect(r.scenarioSnapshot).toEqual(SC_SNAP);
    expect(r.targetSnapshot).toEqual(T_SNAP);
    expect(reports).toEqual([]);
  });

  it('Scenario, PoolConfig, Target, RunSecond and IdempotencyKey columns round-trip', async () => {
    const scenario = {
      template: 'sustained',
      params: { vus: 2, durationMs: 5000 },
      requests: [{ path: '/work', query: { ms: '5' } }],
      thresholds: [{ metric: 'http_req_duration', expr: 'p(95)<500', abortOnFail: false }],
    };
    const sc = parseScenarioRow(
      await db.scenario.create({
        data: { teamId: ids.teamId, name: 'round trip', ...scenarioRowData(scenario) },
      }),
    );
    expect({ template: sc.templateId, ...sc.params, thresholds: sc.thresholds }).toEqual(scenario);
    const pc = parsePoolConfig(
      await db.poolConfig.create({
        data: {
          teamId: ids.teamId,
          targetId: ids.targetId,
          name: 'rt',
          strategy: 'elastic',
          params: toJson.poolParams({ minConns: 2, maxConns: 8 }),
          instanceCount: 2,
        },
      }),
    );
    expect(pc.params).toEqual({ minConns: 2, maxConns: 8 });
    const t = parseTarget(await db.target.findUniqueOrThrow({ where: { id: ids.targetId } }));
    expect(t.managed).toMatchObject({ program: 'lab-target', setup: { rows: 10_000 } });
    expect(t.requestDefaults).toEqual({ method: 'GET', path: '/health' });
    await db.runSecond.create({
      data: {
        runId,
        second: 0,
        ts: new Date(),
        requests: 3,
        failed: 1,
        statusCounts: { '200': 2, '503': 1 },
        bytesSent: 1n,
        bytesReceived: 1n,
        iterations: 3,
        droppedIterations: 0,
        vus: 1,
        vusMax: 1,
      },
    });
    const s = parseRunSecond(await db.runSecond.findFirstOrThrow({ where: { runId } }));
    expect(s.statusCounts).toEqual({ '200': 2, '503': 1 });
    const body = { id: 'e1', nested: [1, 'two', null, { ok: true }] };
    const k = await db.idempotencyKey.create({
      data: {
        teamId: ids.teamId,
        key: 'k1',
        requestHash: 'h',
        statusCode: 201,
        responseBody: toJson.responseBody(body),
      },
    });
    expect(parseIdempotencyKey(k).responseBody).toEqual(body);
    expect(reports).toEqual([]);
  });

  it('a write that does not match its column schema is refused, naming the column', () => {
    expect(() => toJson.runSummary({ requests: 'many' })).toThrow(/Run\.summary: requests/);
    expect(() => toJson.poolParams({ maxConns: 'ten' })).toThrow(/PoolConfig\.params/);
    expect(() => toJson.thresholdResults([{ metric: 'x' }])).toThrow(/Run\.thresholdResults/);
  });

  it('a corrupt row reads as missing, is reported with its id and column, and never throws', async () => {
    await db.$executeRaw`UPDATE "Run" SET summary = '{"requests": "many"}'::jsonb, "poolConfigSnapshot" = '"not an object"'::jsonb, environment = '[1,2]'::jsonb, "thresholdResults" = '{"pass": 1}'::jsonb WHERE id = ${runId}`;
    const r = parseRun(await db.run.findUniqueOrThrow({ where: { id: runId } }));
    expect(r.summary).toBeNull();
    expect(r.environment).toBeNull();
    expect(r.thresholdResults).toBeNull();
    expect(r.poolConfigSnapshot).toEqual({}); // a not-null snapshot reads like an empty (old) one
    expect(r.scenarioSnapshot).toEqual(SC_SNAP); // the intact columns of the row still read
    expect(reports.map((x) => `${x.model}.${x.column}#${x.id}`).sort()).toEqual(
      ['Run.environment', 'Run.poolConfigSnapshot', 'Run.summary', 'Run.thresholdResults'].map(
        (c) => `${c}#${runId}`,
      ),
    );
    expect(reports.find((x) => x.column === 'summary')!.problems.join(' ')).toContain('requests');
    reports.length = 0;

    const sc = await db.scenario.create({
      data: {
        teamId: ids.teamId,
        name: 'corrupt',
        templateId: 'sustained',
        params: [],
        thresholds: 'none',
      },
    });
    const t = await db.target.create({
      data: {
        teamId: ids.teamId,
        name: 'corrupt',
        kind: 'managed',
        baseUrls: [],
        managed: 5,
        requestDefaults: 'GET /',
        secretHeaderNames: [],
      },
    });
    const pc = await db.poolConfig.create({
      data: {
        teamId: ids.teamId,
        targetId: ids.targetId,
        name: 'corrupt',
        strategy: 'lazy',
        params: { maxConns: 'ten' },
        instanceCount: 1,
      },
    });
    expect(parseScenarioRow(sc)).toMatchObject({ params: {}, thresholds: [] });
    expect(parseTarget(t)).toMatchObject({ managed: null, requestDefaults: {} });
    expect(parsePoolConfig(pc).params).toEqual({});
    expect(reports.map((x) => `${x.model}.${x.column}#${x.id}`).sort()).toEqual(
      [
        `PoolConfig.params#${pc.id}`,
        `Scenario.params#${sc.id}`,
        `Scenario.thresholds#${sc.id}`,
        `Target.managed#${t.id}`,
        `Target.requestDefaults#${t.id}`,
      ].sort(),
    );
  });
});
