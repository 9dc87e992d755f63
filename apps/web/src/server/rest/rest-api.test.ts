import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { validate, compileErrors } from '@readme/openapi-parser';
import { toJson, type Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { expectDocumented } from '~/test/rest';
import { makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { createApiToken } from '~/server/services/api-tokens/create-api-token';
import { revokeApiToken } from '~/server/services/api-tokens/revoke-api-token';
import { setBaseline } from '~/server/services/baselines/set-baseline';
import type { RestDeps } from './deps';
import { handleRest, UNSUPPORTED_METHOD_HEADER } from './handle-rest';
import { buildOpenApi } from './openapi';
import {
  insertSyntheticRun,
  syntheticExperiment,
} from '~/server/services/compare/testing/synthetic-runs';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A summary as the worker writes it; only the fields the metrics read matter here. */
function summary(p99: number, rps: number) {
  return {
    requests: 5000,
    failed: 0,
    errorRate: 0,
    rps,
    durationMs: 5000,
    seconds: 5,
    bytesSent: 1,
    bytesReceived: 1,
    iterations: 5000,
    droppedIterations: 0,
    vusMax: 10,
    statusCounts: { '200': 5000 },
    latency: {
      count: 5000,
      min: 1,
      mean: p99 / 3,
      stdev: 1,
      p50: p99 / 4,
      p90: p99 / 2,
      p95: p99 / 1.5,
      p99,
      p999: p99 * 1.5,
      max: p99 * 2,
    },
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
  };
}

describe('REST API against its OpenAPI document (real Postgres and Redis)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let deps: RestDeps;
  let A: TeamFixture;
  let B: TeamFixture;
  let writeToken: string;
  let readToken: string;
  let baselineExperimentId: string;
  let removableBaselineId: string;
  const doc = buildOpenApi('http://pb.test');

  // every answer, whatever the test asked, is what the document says (expectDocumented)
  const call = async (
    method: string,
    path: string,
    opts: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const res = await handleRest(
      new Request(`http://pb.test/api/v1${path}`, {
        method,
        headers: {
          ...(opts.token === null ? {} : { Authorization: `Bearer ${opts.token ?? writeToken}` }),
          'Content-Type': 'application/json',
          ...opts.headers,
        },
        ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      }),
      deps,
    );
    await expectDocumented(method, path, res);
    return res;
  };

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_rest'));
    services = makeServices();
    deps = {
      db,
      redis: () => services.redis,
      queue: () => services.queue,
      baseUrl: 'http://pb.test',
      rateLimit: { limit: 1000, windowMs: 60_000 },
    };
    A = await makeTeam(db, 'a');
    B = await makeTeam(db, 'b');
    writeToken = (
      await createApiToken(db, {
        teamId: A.teamId,
        userId: A.users.admin.id,
        name: 'ci',
        scopes: ['runs:read', 'runs:write'],
        expiresInDays: 30,
      })
    ).token;
    readToken = (
      await createApiToken(db, {
        teamId: A.teamId,
        userId: A.users.admin.id,
        name: 'read',
        scopes: ['runs:read'],
        expiresInDays: null,
      })
    ).token;
    // a finished baseline experiment (4 repeats) and finished candidate runs, so compare has data
    const base = await db.experiment.create({
      data: {
        teamId: A.teamId,
        targetId: A.targetId,
        name: 'main',
        repeats: 4,
        status: 'completed',
        poolConfigs: { create: [{ poolConfigId: A.poolConfigId, position: 0 }] },
        scenarios: { create: [{ scenarioId: A.scenarioId, position: 0 }] },
      },
    });
    baselineExperimentId = base.id;
    for (let i = 0; i < 4; i++) {
      await db.run.create({
        data: {
          teamId: A.teamId,
          experimentId: base.id,
          targetId: A.targetId,
          poolConfigId: A.poolConfigId,
          scenarioId: A.scenarioId,
          repeatIndex: i,
          sequence: i,
          poolConfigSnapshot: { id: A.poolConfigId, name: 'lazy' },
          scenarioSnapshot: { id: A.scenarioId, name: 'burst' },
          targetSnapshot: {},
          status: 'succeeded',
          summary: toJson.runSummary(summary(10 + i * 0.1, 1000)),
        },
      });
    }
    const cell = {
      kind: 'cell' as const,
      experimentId: base.id,
      poolConfigId: A.poolConfigId,
      scenarioId: A.scenarioId,
    };
    removableBaselineId = (
      await setBaseline(db, A.teamId, A.users.admin.id, { name: 'release-1', item: cell })
    ).id;
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    // a deep copy (the validator dereferences in place), as the parser's own untyped JSON
    const result = await validate(JSON.parse(JSON.stringify(doc)));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  // Valid input for every operation in the document; an operation without one fails the test.
  const examples: Record<
    string,
    () => { path: string; body?: unknown; headers?: Record<string, string> }
  > = {
    startExperiment: () => ({
      path: '/experiments',
      body: {
        kind: 'inline',
        name: 'pr-1',
        target: 'Lab',
        poolConfigs: ['lazy'],
        scenario: {
          template: 'constant-arrival-rate',
          params: { ratePerSec: 50, durationMs: 2000, preAllocatedVUs: 5 },
          requests: [{ method: 'GET', path: '/work', query: { ms: 50 } }],
        },
        repeats: 4,
      },
      headers: { 'Idempotency-Key': `doc-${Date.now()}` },
    }),
    getExperiment: () => ({ path: `/experiments/${A.experimentId}` }),
    getExperimentSummary: () => ({ path: `/experiments/${baselineExperimentId}/summary` }),
    compareExperiment: () => ({ path: `/experiments/${A.experimentId}/compare?baseline=main` }),
    createShareLink: () => ({
      path: `/experiments/${A.experimentId}/share`,
      body: { expiresInDays: 7 },
    }),
    getRun: () => ({ path: `/runs/${A.runIds[0]}` }),
    getChangePoints: () => ({
      path: `/change-points?${new URLSearchParams({ target: A.targetId, scenario: A.scenarioId, poolConfig: A.poolConfigId })}`,
    }),
    saveBaseline: () => ({
      path: '/baselines',
      body: { name: 'main', experimentId: baselineExperimentId },
    }),
    listBaselines: () => ({ path: `/baselines?name=main&target=${A.targetId}` }),
    removeBaseline: () => ({ path: `/baselines/${removableBaselineId}` }),
    extendExperiment: () => ({
      path: `/experiments/${baselineExperimentId}/extend`,
      body: { addRepeats: 1 },
      headers: { 'Idempotency-Key': `ext-${Date.now()}` },
    }),
    cancelExperiment: () => ({ path: `/experiments/${A.experimentId}/cancel` }),
    startAdvisor: () => ({
      path: '/advisors',
      body: {
        target: 'Lab',
        poolConfig: 'lazy',
        scenario: {
          template: 'constant-arrival-rate',
          params: { ratePerSec: 50, durationMs: 2000, preAllocatedVUs: 5 },
          requests: [{ method: 'GET', path: '/work', query: { ms: 40 } }],
        },
        min: 1,
        max: 4,
        objective: { kind: 'slo', p99Ms: 100, errorRate: 0.001 },
        budgetRuns: 8,
      },
      headers: { 'Idempotency-Key': `adv-${Date.now()}` },
    }),
  };
  const ORDER = [
    'saveBaseline',
    'listBaselines',
    'removeBaseline',
    'startExperiment',
    'getExperiment',
    'getExperimentSummary',
    'compareExperiment',
    'createShareLink',
    'getRun',
    'getChangePoints',
    'extendExperiment',
    'cancelExperiment',
    'startAdvisor',
  ];

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components } as Json);
  const check = (schemaRef: string, body: unknown) => {
    const v = ajv.getSchema(`doc${schemaRef}`)!;
    expect(v(body), JSON.stringify(v.errors)).toBe(true);
  };

  const compareDoc = (doc.paths as Json)['/experiments/{id}/compare'] as Json;
  const ops = Object.entries(doc.paths as Json).flatMap(([p, methods]) =>
    Object.entries(methods as Json).map(([m, o]) => ({
      path: p,
      method: m.toUpperCase(),
      op: o as Json,
    })),
  );

  it('has an example for every documented operation', () => {
    expect(ops.map((o) => o.op.operationId).sort()).toEqual(Object.keys(examples).sort());
  });

  it.each(ORDER)('%s answers as documented', async (operationId) => {
    const o = ops.find((x) => x.op.operationId === operationId)!;
    const ex = examples[operationId]!();
    const res = await call(o.method, ex.path, { body: ex.body, headers: ex.headers });
    const documented = o.op.responses[String(res.status)];
    const text = await res.text();
    expect(documented, `status ${res.status} is not documented: ${text}`).toBeDefined();
    const [mediaType, media] = Object.entries(documented.content as Json)[0]!;
    expect(res.headers.get('content-type')).toBe(mediaType);
    check((media as Json).schema.$ref, JSON.parse(text));
    expect(res.status).toBe(Number(Object.keys(o.op.responses)[0]));
    // every route also refuses without a token, with a documented problem
    const anon = await call(o.method, ex.path, { token: null, body: ex.body });
    expect(anon.status).toBe(401);
    check(o.op.responses['401'].content['application/problem+json'].schema.$ref, await anon.json());
  });

  it('starts a saved experiment by name, and the same inline scenario twice reuses one scenario row', async () => {
    const saved = await call('POST', '/experiments', {
      body: { kind: 'saved', experiment: 'exp', repeats: 1 },
    });
    expect(saved.status).toBe(201);
    const e = await saved.json();
    expect(e.repeats).toBe(1);
    expect((await db.experiment.findUnique({ where: { id: e.id } }))!.sourceId).toBe(
      A.experimentId,
    );
    const inline = {
      kind: 'inline',
      target: A.targetId,
      poolConfigs: [A.poolConfigId],
      scenario: {
        template: 'spike',
        params: { baselineVUs: 1, spikeVUs: 4, spikes: 1, baselineMs: 1000, spikeHoldMs: 1000 },
        requests: [{ path: '/health' }],
      },
    };
    const one = await call('POST', '/experiments', { body: inline });
    const two = await call('POST', '/experiments', {
      body: {
        ...inline,
        scenario: {
          requests: [{ path: '/health' }],
          params: inline.scenario.params,
          template: 'spike',
        },
      },
    });
    expect([one.status, two.status], await one.clone().text()).toEqual([201, 201]);
    const [b1, b2] = [await one.json(), await two.json()];
    expect(b1.scenarios[0].id).toBe(b2.scenarios[0].id);
    // a readable name from the content, not "api-<hash>"
    expect(b1.scenarios[0].name).toMatch(
      /^Spike 1 VUs? · GET \/health · [0-9a-f]{6}$|^Spike · GET \/health · [0-9a-f]{6}$/,
    );
    // an inline start without repeats gets 5, enough for a verdict (fewer than 5 per side never is with the 4 default primaries)
    expect(b1.repeats).toBe(5);

    // a row saved under the older name keeps its id (its baselines and history), renamed
    const rate = {
      ...inline,
      scenario: {
        template: 'constant-arrival-rate',
        params: { ratePerSec: 40, durationMs: 3000, preAllocatedVUs: 5 },
        requests: [{ path: '/work', query: { ms: 5 } }],
      },
    };
    const first = await (await call('POST', '/experiments', { body: rate })).json();
    const row = first.scenarios[0] as { id: string; name: string };
    expect(row.name).toMatch(
      /^Constant arrival rate 40 req\/s · GET \/work · 3 s · ([0-9a-f]{6})$/,
    );
    const hash6 = row.name.slice(-6);
    const legacyRows = await db.$queryRaw<
      { name: string }[]
    >`SELECT name FROM "Scenario" WHERE id = ${row.id}`;
    expect(legacyRows[0]!.name).toBe(row.name);
    // pretend it was saved by the previous release, under api-<12 hex of the content hash>
    const { createHash } = await import('node:crypto');
    const { canonicalJson, parseScenario } = await import('@poolbench/scenarios');
    const full = createHash('sha256')
      .update(canonicalJson(parseScenario(rate.scenario, 'scenario')))
      .digest('hex');
    expect(full.slice(0, 6)).toBe(hash6);
    await db.scenario.update({ where: { id: row.id }, data: { name: `api-${full.slice(0, 12)}` } });
    const again = await (await call('POST', '/experiments', { body: rate })).json();
    expect(again.scenarios[0]).toEqual(row);
  });

  it('an inline start is counterbalanced unless told otherwise: the order on the experiment, each run its place in its round', async () => {
    const other = await db.poolConfig.create({
      data: {
        teamId: A.teamId,
        targetId: A.targetId,
        name: 'lazy again',
        strategy: 'lazy',
        params: {},
        instanceCount: 1,
      },
    });
    const start = (order?: string) =>
      call('POST', '/experiments', {
        body: {
          kind: 'inline',
          target: 'Lab',
          poolConfigs: ['lazy', 'lazy again'],
          scenario: {
            template: 'constant-arrival-rate',
            params: { ratePerSec: 50, durationMs: 2000, preAllocatedVUs: 5 },
            requests: [{ method: 'GET', path: '/work', query: { ms: 7 } }],
          },
          repeats: 4,
          ...(order ? { order } : {}),
        },
      });
    const res = await start();
    expect(res.status, await res.clone().text()).toBe(201);
    const e = await res.json();
    expect(e.order).toBe('counterbalanced');
    const firsts = (e.runs as Json[]).filter((r) => r.positionInRound === 0);
    expect(firsts.map((r) => [r.repeatIndex, r.poolConfigId])).toEqual([
      [0, A.poolConfigId],
      [1, other.id],
      [2, A.poolConfigId],
      [3, other.id],
    ]);
    const run = (e.runs as Json[]).find(
      (r) => r.repeatIndex === 1 && r.poolConfigId === A.poolConfigId,
    )!;
    const got = await (await call('GET', `/runs/${run.id}`)).json();
    expect(got.positionInRound).toBe(1);
    const interleaved = await (await start('interleaved')).json();
    expect(interleaved.order).toBe('interleaved');
    expect(
      (interleaved.runs as Json[])
        .filter((r) => r.positionInRound === 0)
        .map((r) => r.poolConfigId),
    ).toEqual([A.poolConfigId, A.poolConfigId, A.poolConfigId, A.poolConfigId]);
    await call('POST', `/experiments/${e.id}/cancel`);
    await call('POST', `/experiments/${interleaved.id}/cancel`);
  });

  it("baselines: the list narrows by target, scenario and name; a removal needs runs:write and the team's own id", async () => {
    const saved = await call('POST', '/baselines', {
      body: { name: 'nightly', experimentId: baselineExperimentId },
    });
    expect(saved.status).toBe(200);
    const [row] = ((await saved.json()) as Json).baselines as Json[];
    const list = async (q: Record<string, string>, token = readToken) =>
      call('GET', `/baselines?${new URLSearchParams(q)}`, { token });
    const byName = (await (await list({ name: 'nightly', target: 'Lab' })).json()) as Json;
    expect(byName.baselines).toEqual([
      expect.objectContaining({
        id: row!.id,
        name: 'nightly',
        target: { id: A.targetId, name: 'Lab' },
        experimentId: baselineExperimentId,
        poolConfig: { id: A.poolConfigId, name: expect.any(String) },
        runId: null,
      }),
    ]);
    expect(((await (await list({ scenario: A.scenarioId })).json()) as Json).baselines).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: row!.id })]),
    );
    const badName = await list({ name: 'main\u000f' });
    expect(badName.status).toBe(422);
    expect((await badName.json()).problems).toEqual([
      { path: 'name', message: 'letters, digits, - _ . / only' },
    ]);
    const unknownTarget = await list({ target: 'No such target' });
    expect(unknownTarget.status).toBe(404);
    expect((await unknownTarget.json()).detail).toMatch(/the targets are "Lab"/);

    const readOnly = await call('DELETE', `/baselines/${row!.id}`, { token: readToken });
    expect(readOnly.status).toBe(403);
    expect((await readOnly.json()).code).toBe('scope_missing');
    const bToken = (
      await createApiToken(db, {
        teamId: B.teamId,
        userId: B.users.admin.id,
        name: 'b',
        scopes: ['runs:read', 'runs:write'],
        expiresInDays: 1,
      })
    ).token;
    expect((await call('DELETE', `/baselines/${row!.id}`, { token: bToken })).status).toBe(404);
    expect(((await (await list({ name: 'nightly' }, bToken)).json()) as Json).baselines).toEqual(
      [],
    );
    // another team's target id is not found: nothing of it is listed
    const foreign = await list({ target: A.targetId }, bToken);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(await foreign.json())).not.toContain(row!.id as string);

    const removed = await call('DELETE', `/baselines/${row!.id}`);
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as Json).removed).toMatchObject({
      id: row!.id,
      name: 'nightly',
    });
    expect(((await (await list({ name: 'nightly' })).json()) as Json).baselines).toEqual([]);
    expect((await call('DELETE', `/baselines/${row!.id}`)).status).toBe(404);
  });

  it('a start while no worker is online warns, naming the command that starts one; with a worker online it does not', async () => {
    const start = (name: string) =>
      call('POST', '/experiments', {
        body: { kind: 'saved', experiment: baselineExperimentId, name },
      });
    const lonely = await start('no worker yet');
    expect(lonely.status).toBe(201);
    const answer = (await lonely.json()) as Json;
    expect(answer.warnings).toEqual([
      {
        code: 'no_worker_online',
        message: expect.stringContaining('`scripts/stack.sh start worker`'),
      },
    ]);
    expect(answer.warnings[0].message).toMatch(/^no worker is online: the runs wait as queued/);
    await call('POST', `/experiments/${answer.id}/cancel`);

    const now = new Date();
    await db.worker.create({
      data: {
        id: 'rest-test-worker',
        host: 'rest-test',
        pid: 1,
        version: 'test',
        concurrency: 1,
        startedAt: now,
        lastSeenAt: now,
      },
    });
    try {
      const served = await start('a worker is online');
      expect(served.status).toBe(201);
      const body = (await served.json()) as Json;
      expect(body).not.toHaveProperty('warnings');
      await call('POST', `/experiments/${body.id}/cancel`);
    } finally {
      await db.worker.delete({ where: { id: 'rest-test-worker' } });
    }
  });

  it('write operations need runs:write (403 scope_missing), reads work with runs:read', async () => {
    const res = await call('POST', '/baselines', {
      token: readToken,
      body: { experimentId: baselineExperimentId },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('scope_missing');
    expect((await call('GET', `/experiments/${A.experimentId}`, { token: readToken })).status).toBe(
      200,
    );
  });

  it("a change made with a token forgets what web processes keep of the team's results; a read or a refused change does not", async () => {
    const forgotten: unknown[] = [];
    deps.forgetAuth = (r) => {
      forgotten.push(r);
      return Promise.resolve();
    };
    try {
      await call('GET', `/experiments/${A.experimentId}`);
      const refused = await call('POST', '/baselines', {
        token: readToken,
        body: { experimentId: baselineExperimentId },
      });
      expect(refused.status).toBe(403);
      expect(forgotten).toEqual([]);
      const set = await call('POST', '/baselines', {
        body: { experimentId: baselineExperimentId },
      });
      expect(set.status).toBeLessThan(300);
      expect(forgotten).toEqual([{ teamId: A.teamId }]);
    } finally {
      delete deps.forgetAuth;
    }
  });

  it('a method a path does not have is 405 with the Allow of that path; OPTIONS lists it', async () => {
    const del = await call('DELETE', '/experiments');
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await del.json()).code).toBe('method_not_allowed');
    // TRACE and other methods Next.js cannot route reach the API as a GET marked by server.mjs
    for (const method of ['TRACE', 'TRACK', 'PROPFIND']) {
      const res = await call('GET', `/experiments/${A.experimentId}`, {
        headers: { [UNSUPPORTED_METHOD_HEADER]: method },
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow'), method).toBe('GET, OPTIONS');
      expect((await res.json()).detail).toBe(
        `${method} is not supported on /api/v1/experiments/${A.experimentId}; it allows GET, OPTIONS`,
      );
    }
    // the marker can only ever earn a 405: a routed method in it is ignored
    const spoofed = await call('GET', `/experiments/${A.experimentId}`, {
      headers: { [UNSUPPORTED_METHOD_HEADER]: 'POST' },
    });
    expect(spoofed.status).toBe(200);
    const options = await call('OPTIONS', '/experiments/x1/compare');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, OPTIONS');
  });

  it("another team's ids are 404 not_found", async () => {
    const res = await call('GET', `/experiments/${B.experimentId}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).code).toBe('not_found');
  });

  it('bad, revoked and expired tokens are 401 with distinct codes', async () => {
    const typo = writeToken.slice(0, -1) + (writeToken.endsWith('a') ? 'b' : 'a');
    expect((await (await call('GET', `/runs/${A.runIds[0]}`, { token: typo })).json()).code).toBe(
      'token_malformed',
    );
    expect((await (await call('GET', `/runs/${A.runIds[0]}`, { token: 'nope' })).json()).code).toBe(
      'token_malformed',
    );
    const t = await createApiToken(db, {
      teamId: A.teamId,
      userId: A.users.admin.id,
      name: 'short-lived',
      scopes: ['runs:read'],
      expiresInDays: 1,
    });
    await db.apiToken.update({
      where: { id: t.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(
      (await (await call('GET', `/runs/${A.runIds[0]}`, { token: t.token })).json()).code,
    ).toBe('token_expired');
    const r = await createApiToken(db, {
      teamId: A.teamId,
      userId: A.users.admin.id,
      name: 'revoked',
      scopes: ['runs:read'],
      expiresInDays: null,
    });
    expect((await call('GET', `/runs/${A.runIds[0]}`, { token: r.token })).status).toBe(200);
    await revokeApiToken(db, A.teamId, r.id);
    const res = await call('GET', `/runs/${A.runIds[0]}`, { token: r.token });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('token_revoked');
  });

  it('validation problems name the field', async () => {
    const res = await call('POST', '/experiments', {
      body: {
        kind: 'inline',
        target: 'Lab',
        poolConfigs: ['lazy'],
        scenario: { template: 'spike', params: {}, requests: [] },
      },
    });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.code).toBe('validation_failed');
    expect(body.problems.map((p: { path: string }) => p.path)).toContain('scenario.requests');
    const bad = await call('POST', '/experiments', { body: undefined, headers: {} });
    expect(bad.status).toBe(422);
  });

  it('a NUL in a name or id is a validation problem naming its field, never a server error', async () => {
    // Postgres stores no NUL in text: found by Schemathesis as a 500 on GET /baselines
    for (const [q, path] of [
      [{ target: 'Lab\u0000' }, 'target'],
      [{ scenario: 'R\u0000x', target: 'Lab' }, 'scenario'],
    ] as const) {
      const res = await call('GET', `/baselines?${new URLSearchParams(q)}`);
      expect(res.status, path).toBe(422);
      expect((await res.json()).problems).toEqual([
        { path, message: 'must not contain control characters' },
      ]);
    }
    // a name, as the document states it: no control characters
    const named = await call('POST', '/experiments', {
      body: { kind: 'saved', experiment: 'x', name: 'pr\u0000' },
    });
    expect(named.status).toBe(422);
    expect((await named.json()).problems).toEqual([
      { path: 'name', message: 'must not contain control characters' },
    ]);
    // free text with no pattern of its own: the document's NUL rule, checked
    const claimed = await call('POST', '/experiments', {
      body: {
        kind: 'saved',
        experiment: 'x',
        hypotheses: [
          {
            base: { poolConfig: 'lazy' },
            candidate: { poolConfig: 'lazy' },
            metric: 'p95Ms',
            expect: 'better',
            band: 5,
            claim: 'fast\u0000er',
          },
        ],
      },
    });
    expect(claimed.status).toBe(422);
    expect((await claimed.json()).problems).toEqual([
      { path: 'hypotheses.0.claim', message: 'must not contain a NUL character (U+0000)' },
    ]);
  });

  it('a name that is not found lists the names there are (a command copied into a new team)', async () => {
    const res = await call('POST', '/experiments', {
      body: {
        kind: 'inline',
        target: 'Lab',
        poolConfigs: ['002 · 10 conns x 1 instance'],
        scenario: {
          template: 'constant-arrival-rate',
          params: { ratePerSec: 50, durationMs: 2000, preAllocatedVUs: 5 },
          requests: [{ method: 'GET', path: '/work' }],
        },
        repeats: 4,
      },
    });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.code).toBe('not_found');
    expect(body.detail).toMatch(
      /pool config "002 · 10 conns x 1 instance" of this target not found; the pool configs of this target are .*"lazy"/,
    );
  });

  it('records lastUsedAt on use', async () => {
    const row = await db.apiToken.findFirst({ where: { teamId: A.teamId, name: 'ci' } });
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it('rate limits per token with 429 and Retry-After', async () => {
    const t = await createApiToken(db, {
      teamId: A.teamId,
      userId: A.users.admin.id,
      name: 'limited',
      scopes: ['runs:read'],
      expiresInDays: null,
    });
    const limited = { ...deps, rateLimit: { limit: 3, windowMs: 60_000 } };
    const get = () =>
      handleRest(
        new Request(`http://pb.test/api/v1/runs/${A.runIds[0]}`, {
          headers: { Authorization: `Bearer ${t.token}` },
        }),
        limited,
      );
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get()).status);
    // the window may roll over between requests; then the 4th is allowed and a 5th is not needed
    const last = await get();
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect([statuses[3], last.status]).toContain(429);
    const limitedRes = statuses[3] === 429 ? await get() : last;
    expect(limitedRes.status).toBe(429);
    expect(Number(limitedRes.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limitedRes.json()).code).toBe('rate_limited');
  });

  it('compare reports p99 with the change and its interval; at 4 vs 4 the four primaries cannot decide: incomplete, never a pass', async () => {
    const cand = await db.experiment.create({
      data: {
        teamId: A.teamId,
        targetId: A.targetId,
        name: 'pr',
        repeats: 4,
        status: 'completed',
        poolConfigs: { create: [{ poolConfigId: A.poolConfigId, position: 0 }] },
        scenarios: { create: [{ scenarioId: A.scenarioId, position: 0 }] },
      },
    });
    for (let i = 0; i < 4; i++) {
      await db.run.create({
        data: {
          teamId: A.teamId,
          experimentId: cand.id,
          targetId: A.targetId,
          poolConfigId: A.poolConfigId,
          scenarioId: A.scenarioId,
          repeatIndex: i,
          sequence: i,
          poolConfigSnapshot: {},
          scenarioSnapshot: {},
          targetSnapshot: {},
          status: 'succeeded',
          summary: toJson.runSummary(summary(20 + i * 0.1, 1000)),
        },
      });
    }
    const body = await (await call('GET', `/experiments/${cand.id}/compare`)).json();
    // p95 and p99 are primary: Holm over the 4 primaries makes the best 4-vs-4 one-sided p
    // 1/70 x 4 = 0.057, so no primary can be worse or suspected and the cell is incomplete, naming
    // the runs it needs; p50, a secondary metric, is worse on its own family's p and reported.
    expect(body.outcome).toBe('incomplete');
    expect(body.cells[0].state).toBe('incomplete');
    expect(body.cells[0].incomplete).toBe(
      '4 vs 4 measured runs: no change of the 4 primary metrics can reach p < 0.05 (at best 0.057); the test needs 5 per side, or fewer primary metrics',
    );
    const p99 = body.cells[0].metrics.find((m: { key: string }) => m.key === 'p99Ms');
    expect(p99).toMatchObject({ verdict: 'inconclusive', suspected: false, primary: true });
    const p50 = body.cells[0].metrics.find((m: { key: string }) => m.key === 'p50Ms');
    expect(p50).toMatchObject({ verdict: 'worse', primary: false });
    expect(p99.changePercent.estimate).toBeGreaterThan(90);
    expect(p99.changePercent.lower).toBeGreaterThan(5);
    const rps = body.cells[0].metrics.find((m: { key: string }) => m.key === 'rps');
    expect(rps.verdict).toBe('no-change');
    // the fixture experiment's runs are still queued: a baseline exists, nothing to compare yet
    const pending = await (await call('GET', `/experiments/${A.experimentId}/compare`)).json();
    expect(pending.outcome).toBe('incomplete');
    expect(pending.cells[0].baseline.runs).toBe(0);
  });

  it('metrics=p99Ms gates on p99 alone: a lone 4-vs-4 regression that the correction over every metric leaves inconclusive', async () => {
    const cand = await db.experiment.create({
      data: {
        teamId: A.teamId,
        targetId: A.targetId,
        name: 'pr-p99',
        repeats: 4,
        status: 'completed',
        poolConfigs: { create: [{ poolConfigId: A.poolConfigId, position: 0 }] },
        scenarios: { create: [{ scenarioId: A.scenarioId, position: 0 }] },
      },
    });
    for (let i = 0; i < 4; i++) {
      // the baseline's runs with only p99 doubled: p50, p95, throughput and errors identical
      const s = summary(10 + i * 0.1, 1000);
      await db.run.create({
        data: {
          teamId: A.teamId,
          experimentId: cand.id,
          targetId: A.targetId,
          poolConfigId: A.poolConfigId,
          scenarioId: A.scenarioId,
          repeatIndex: i,
          sequence: i,
          poolConfigSnapshot: {},
          scenarioSnapshot: {},
          targetSnapshot: {},
          status: 'succeeded',
          summary: toJson.runSummary({ ...s, latency: { ...s.latency, p99: 20 + i * 0.1 } }),
        },
      });
    }
    const compareRef = compareDoc.get.responses['200'].content['application/json'].schema.$ref;
    const all = await (await call('GET', `/experiments/${cand.id}/compare?baseline=main`)).json();
    check(compareRef, all);
    expect(all.gatedOn).toEqual([
      'rps',
      'p50Ms',
      'p95Ms',
      'p99Ms',
      'errorRate',
      'checkPassRate',
      'connectP95Ms',
      'cpuMeanPercent',
      'cpuPeakPercent',
      'rssMeanBytes',
      'rssPeakBytes',
      'poolWaitMsMean',
    ]);
    expect(all.cells[0].metrics.find((m: { key: string }) => m.key === 'p99Ms')).toMatchObject({
      verdict: 'inconclusive',
      suspected: false,
    });
    // p99 doubled, but 4 vs 4 cannot decide any of the 4 primaries: incomplete, never a pass
    expect(all.outcome).toBe('incomplete');
    expect(all.cells[0].incomplete).toMatch(/^4 vs 4 measured runs: no change of the 4 primary/);

    const gated = await (
      await call('GET', `/experiments/${cand.id}/compare?baseline=main&metrics=p99Ms`)
    ).json();
    check(compareRef, gated);
    expect(gated.gatedOn).toEqual(['p99Ms']);
    expect(
      gated.cells[0].metrics.map((m: { key: string; verdict: string }) => [m.key, m.verdict]),
    ).toEqual([['p99Ms', 'worse']]);
    expect(gated.outcome).toBe('regression');
    // repeated keys and spaces after commas are harmless
    expect(
      (await (await call('GET', `/experiments/${cand.id}/compare?metrics=p99Ms,%20p99Ms`)).json())
        .gatedOn,
    ).toEqual(['p99Ms']);
  });

  it("compare and summary list the script's own metrics: ms only for a trend of times, beside the verdicts", async () => {
    const trend = (p: number) => ({
      count: 100,
      min: p / 2,
      max: p * 2,
      mean: p,
      p50: p,
      p90: p,
      p95: p * 1.5,
      p99: p * 1.8,
      p999: p * 2,
    });
    const scripted = async (name: string, login: number, items: number, orders: number) => {
      const e = await db.experiment.create({
        data: {
          teamId: A.teamId,
          targetId: A.targetId,
          name,
          repeats: 3,
          status: 'completed',
          poolConfigs: { create: [{ poolConfigId: A.poolConfigId, position: 0 }] },
          scenarios: { create: [{ scenarioId: A.scenarioId, position: 0 }] },
        },
      });
      for (let i = 0; i < 3; i++)
        await db.run.create({
          data: {
            teamId: A.teamId,
            experimentId: e.id,
            targetId: A.targetId,
            poolConfigId: A.poolConfigId,
            scenarioId: A.scenarioId,
            repeatIndex: i,
            sequence: i,
            poolConfigSnapshot: {},
            scenarioSnapshot: {},
            targetSnapshot: {},
            status: 'succeeded',
            summary: toJson.runSummary({
              ...summary(10 + i * 0.1, 1000),
              custom: {
                login_ms: { type: 'trend', count: 100, time: true, trend: trend(login + i) },
                items: {
                  type: 'trend',
                  count: 100,
                  time: false,
                  negative: 1,
                  aboveTop: 1,
                  trend: trend(items),
                },
                orders: { type: 'counter', count: 50, sum: orders },
              },
            }),
          },
        });
      return e.id;
    };
    const baseId = await scripted('scripted-base', 10, 3, 50);
    await setBaseline(db, A.teamId, A.users.admin.id, {
      name: 'scripted',
      item: {
        kind: 'cell',
        experimentId: baseId,
        poolConfigId: A.poolConfigId,
        scenarioId: A.scenarioId,
      },
    });
    const candId = await scripted('scripted-pr', 20, 4, 50);
    const compareRef = compareDoc.get.responses['200'].content['application/json'].schema.$ref;
    const body = await (
      await call('GET', `/experiments/${candId}/compare?baseline=scripted`)
    ).json();
    check(compareRef, body);
    // in the order the runs' summaries list them (Postgres' jsonb keeps keys shortest first)
    const rows = body.cells[0].scriptMetrics as Array<Record<string, unknown>>;
    expect(rows.map((r) => `${r.name} ${r.stat} ${r.unit}`).sort()).toEqual([
      'items p50 ',
      'items p95 ',
      'items p99 ',
      'login_ms p50 ms',
      'login_ms p95 ms',
      'login_ms p99 ms',
      'orders rate /s',
      'orders total ',
    ]);
    const row = (name: string, stat: string) =>
      rows.find((r) => r.name === name && r.stat === stat);
    expect(row('login_ms', 'p50')).toEqual({
      name: 'login_ms',
      type: 'trend',
      stat: 'p50',
      unit: 'ms',
      baselineMedian: 11,
      baselineRuns: 3,
      candidateMedian: 21,
      candidateRuns: 3,
      difference: { absolute: 10, percent: expect.closeTo(90.9, 1) },
    });
    expect(row('items', 'p50')).toMatchObject({
      baselineMedian: 3,
      candidateMedian: 4,
      difference: { absolute: 1 },
    });
    expect(row('orders', 'total')).toMatchObject({
      baselineMedian: 50,
      candidateMedian: 50,
      difference: { absolute: 0, percent: 0 },
    });
    // descriptive: the verdicts and the outcome rest on the tested metrics alone
    expect(body.cells[0].metrics.map((m: { key: string }) => m.key)).not.toContain('login_ms');

    const summaryRef = (doc.paths as Json)['/experiments/{id}/summary'].get.responses['200']
      .content['application/json'].schema.$ref;
    const sum = await (await call('GET', `/experiments/${candId}/summary`)).json();
    check(summaryRef, sum);
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect([...sum.cells[0].scriptMetrics].sort(byName)).toEqual([
      {
        name: 'items',
        type: 'trend',
        unit: '',
        runs: 3,
        count: 100,
        negative: 3,
        aboveTop: 3,
        p95: 6,
        mean: 4,
        sum: null,
        rate: null,
        last: null,
        max: null,
      },
      {
        name: 'login_ms',
        type: 'trend',
        unit: 'ms',
        runs: 3,
        count: 100,
        negative: 0,
        aboveTop: 0,
        p95: 31.5,
        mean: 21,
        sum: null,
        rate: null,
        last: null,
        max: null,
      },
      {
        name: 'orders',
        type: 'counter',
        unit: '',
        runs: 3,
        count: 50,
        negative: 0,
        aboveTop: 0,
        p95: null,
        mean: null,
        sum: 50,
        rate: null,
        last: null,
        max: null,
      },
    ]);
  });

  it.each([
    ['p99', 'unknown metric "p99"'],
    ['maxMs', '"maxMs" is shown but never tested'],
    ['', 'choose at least one metric'],
  ])('metrics=%j is 422 naming the field and listing the valid keys', async (metrics, reason) => {
    const res = await call(
      'GET',
      `/experiments/${A.experimentId}/compare?metrics=${encodeURIComponent(metrics)}`,
    );
    expect(res.status).toBe(422);
    const body = await res.json();
    check(compareDoc.get.responses['422'].content['application/problem+json'].schema.$ref, body);
    expect(body.code).toBe('validation_failed');
    expect(body.problems).toEqual([{ path: 'metrics', message: expect.stringContaining(reason) }]);
    expect(body.problems[0].message).toContain('valid keys: rps, p50Ms, p95Ms, p99Ms, errorRate,');
  });

  it('from/to compare only those seconds of every run: a slower cold start alone is no regression after the warm-up', async () => {
    const sc = await db.scenario.create({
      data: {
        teamId: A.teamId,
        name: 'windowed',
        templateId: 'sustained',
        params: {},
        thresholds: [],
      },
    });
    const runs = async (name: string, coldStartFactor: number, seed: number) => {
      const e = await syntheticExperiment(db, A.teamId, A.targetId, sc.id, [name], 5);
      for (let r = 0; r < 5; r++) {
        await insertSyntheticRun(db, {
          teamId: A.teamId,
          experimentId: e.experimentId,
          targetId: A.targetId,
          scenarioId: sc.id,
          poolConfigId: e.poolConfigs[0]!.id,
          poolConfigName: name,
          scenarioName: 'windowed',
          repeatIndex: r,
          seconds: 40,
          latencyMs: 10,
          rps: 50,
          coldStartFactor,
          seed: seed + r,
        });
      }
      return e;
    };
    const base = await runs('lazy', 0.1, 100);
    await db.baseline.create({
      data: {
        teamId: A.teamId,
        targetId: A.targetId,
        scenarioId: sc.id,
        name: 'warm',
        experimentId: base.experimentId,
        poolConfigId: base.poolConfigs[0]!.id,
      },
    });
    const cand = await runs('cold', 2, 200); // the first 10 s up to 21x slower, the same after
    const compareRef = compareDoc.get.responses['200'].content['application/json'].schema.$ref;

    const whole = await (
      await call('GET', `/experiments/${cand.experimentId}/compare?baseline=warm&metrics=p95Ms`)
    ).json();
    check(compareRef, whole);
    expect(whole.window).toBeNull();
    expect(whole.cells[0].metrics[0]).toMatchObject({ key: 'p95Ms', verdict: 'worse' });
    expect(whole.outcome).toBe('regression');

    const steady = await (
      await call(
        'GET',
        `/experiments/${cand.experimentId}/compare?baseline=warm&metrics=p95Ms&from=10&to=40`,
      )
    ).json();
    check(compareRef, steady);
    expect(steady.window).toEqual({ from: 10, to: 40 });
    expect(steady.cells[0].metrics[0].verdict).not.toBe('worse');
    expect(Math.abs(steady.cells[0].metrics[0].changePercent.estimate)).toBeLessThan(10);
    expect(steady.outcome).toBe('pass');
  });

  it.each([
    ['from=10', 'to', 'give from and to together'],
    ['to=10', 'from', 'give from and to together'],
    ['from=10&to=10', 'to', 'must be after from (10)'],
    ['from=&to=10', 'from', 'give from and to together'],
    ['from=-1&to=10', 'from', 'must be 0 or more'],
    ['from=1.5&to=10', 'from', 'must be a whole number of seconds'],
    [
      'from=0&to=9007199254740992',
      'to',
      'must be at most 7200 (a run lasts at most that many seconds)',
    ],
  ])('%s is 422 naming the field', async (q, path, message) => {
    const res = await call('GET', `/experiments/${A.experimentId}/compare?${q}`);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.problems).toEqual([{ path, message }]);
  });

  it('a run whose thresholds failed is thresholds_failed in run and experiment payloads (documented enum), yet measured for compare', async () => {
    const e = await db.experiment.create({
      data: {
        teamId: A.teamId,
        targetId: A.targetId,
        name: 'thresholds',
        repeats: 4,
        status: 'completed',
        poolConfigs: { create: [{ poolConfigId: A.poolConfigId, position: 0 }] },
        scenarios: { create: [{ scenarioId: A.scenarioId, position: 0 }] },
      },
    });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await db.run.create({
        data: {
          teamId: A.teamId,
          experimentId: e.id,
          targetId: A.targetId,
          poolConfigId: A.poolConfigId,
          scenarioId: A.scenarioId,
          repeatIndex: i,
          sequence: i,
          poolConfigSnapshot: {},
          scenarioSnapshot: {},
          targetSnapshot: {},
          status: 'thresholds_failed',
          errorCode: 'thresholds_failed',
          errorMessage: '1 of 1 thresholds failed',
          thresholdResults: [
            { metric: 'http_req_duration', expr: 'p(99)<1', observed: 10, pass: false },
          ],
          summary: toJson.runSummary(summary(10 + i * 0.1, 1000)),
        },
      });
      ids.push(r.id);
    }
    const runRes = await call('GET', `/runs/${ids[0]}`);
    const run = await runRes.json();
    expect(run.status).toBe('thresholds_failed');
    check(
      ((doc.paths as Json)['/runs/{id}'] as Json).get.responses['200'].content['application/json']
        .schema.$ref,
      run,
    );
    const exp = await (await call('GET', `/experiments/${e.id}`)).json();
    expect(exp.progress.byStatus).toEqual({ thresholds_failed: 4 });
    expect(exp.runs.map((r: { status: string }) => r.status)).toEqual(
      Array(4).fill('thresholds_failed'),
    );
    check(
      ((doc.paths as Json)['/experiments/{id}'] as Json).get.responses['200'].content[
        'application/json'
      ].schema.$ref,
      exp,
    );
    const sum = await (await call('GET', `/experiments/${e.id}/summary`)).json();
    expect(sum.thresholdsFailed).toBe(true);
    expect(sum.cells[0].succeeded).toBe(4);
    // its measurements are valid: compared with the baseline, not "incomplete"
    const cmp = await (await call('GET', `/experiments/${e.id}/compare`)).json();
    expect(cmp.outcome).not.toBe('incomplete');
    expect(cmp.cells[0].candidateRuns).toBe(4);
    expect(JSON.stringify(doc)).toContain('thresholds_failed');
  });

  it('documents the metrics parameter with its keys', () => {
    const query = compareDoc.get.parameters.find((p: { in: string }) => p.in === 'query');
    expect(query).toMatchObject({ style: 'form', explode: true, required: false });
    expect(query.schema.properties.metrics).toMatchObject({ type: 'string' });
    expect(query.schema.properties.metrics.description).toContain('p99Ms');
  });
});
