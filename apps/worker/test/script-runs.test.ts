import { readFileSync } from 'node:fs';
import { parseRun, parseRunSecond } from '@poolbench/db';
import { isTimeTrend, sumChecks, sumCustomMetrics } from '@poolbench/stats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, type World } from './harness';

// A team's own k6 script through the real worker: sandboxed, against the managed lab target.
const SCRIPT = `import http from 'k6/http';
import { check } from 'k6';
export const options = {
  scenarios: {
    steady: { executor: 'per-vu-iterations', vus: 2, iterations: 10, exec: 'steady' },
  },
};
export function steady() {
  const ok = http.get(__ENV.BASE_URL + '/health', { tags: { name: 'health' } });
  check(ok, { 'health is 200': (r) => r.status === 200 });
  // an address the run did not pin: blocked by the sandbox's network rules, a failed request
  http.get('http://127.0.0.2:' + __ENV.BASE_URL.split(':').pop() + '/health', {
    tags: { name: 'elsewhere' },
    timeout: '2s',
  });
}
`;

/** The login flow as a k6 script and its users.csv, exactly as docs/k6-scripts.md shows them. */
function docsExample(): { source: string; csv: string } {
  const doc = readFileSync(new URL('../../../docs/k6-scripts.md', import.meta.url), 'utf8');
  const part = doc.slice(doc.indexOf('## Example: the login flow as a script'));
  const blocks = [...part.matchAll(/```(\w*)\n([\s\S]*?)```/g)];
  const source = blocks.find((b) => b[1] === 'js')?.[2];
  const csv = blocks.find((b) => b[1] === '')?.[2];
  if (!source || !csv) throw new Error('docs/k6-scripts.md lost its login example');
  return { source, csv };
}

describe('worker: a team k6 script', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('scripts');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  /** Launches one run of the scenario, waits for its end, and expects it to have succeeded. */
  async function succeeded(poolConfigId: string, scenarioId: string) {
    const { runIds } = await w.launch([poolConfigId], [scenarioId]);
    const row = await w.waitForStatus(
      runIds[0]!,
      ['failed', 'succeeded', 'aborted_system'],
      120_000,
    );
    const run = parseRun(row);
    expect(run.status, run.errorMessage ?? '').toBe('succeeded');
    const steps = Object.fromEntries((run.summary?.steps ?? []).map((s) => [s.name, s]));
    return { run, steps };
  }

  it('runs in the sandbox with its own scenarios, and requests to other addresses fail', async () => {
    w.startWorker();
    const pc = await w.poolConfig('lazy script', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('own script', { template: 'k6-script', source: SCRIPT });
    const { run, steps } = await succeeded(pc.id, sc.id);
    expect(steps.health?.requests).toBe(20);
    expect(steps.health?.failed).toBe(0);
    // every request to the unpinned address failed without a response
    expect(steps.elsewhere?.requests).toBe(20);
    expect(steps.elsewhere?.failed).toBe(20);
    expect(run.summary?.statusCounts['0']).toBe(20);
    expect(run.script).toBe(SCRIPT);
  });

  it('does not start a queued script run once the team turned scripts off', async () => {
    const pc = await w.poolConfig('lazy script off', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('own script, off', { template: 'k6-script', source: SCRIPT });
    const { runIds } = await w.launch([pc.id], [sc.id]);
    await w.db.team.update({ where: { id: w.ids.teamId }, data: { scriptScenarios: false } });
    w.startWorker();
    const run = await w.waitForStatus(
      runIds[0]!,
      ['failed', 'succeeded', 'aborted_system'],
      60_000,
    );
    expect(run.status).toBe('failed');
    expect(run.errorCode).toBe('scripts_disabled');
    expect(run.errorMessage).toContain("this team's admins turned off k6 scripts");
    await w.db.team.update({ where: { id: w.ids.teamId }, data: { scriptScenarios: true } });
  });

  it('stops a script at its stop time plus a short grace, whatever its teardown does', async () => {
    w.startWorker();
    const pc = await w.poolConfig('lazy endless teardown', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('endless teardown', {
      template: 'k6-script',
      maxDurationMs: 15_000,
      source: `import http from 'k6/http';
import { sleep } from 'k6';
export const options = { scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '3s' } } };
export default function () { http.get(__ENV.BASE_URL + '/health'); sleep(0.2); }
export function teardown() { for (;;) {} }
`,
    });
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const row = await w.waitForStatus(
      runIds[0]!,
      ['failed', 'succeeded', 'timed_out', 'aborted_system'],
      120_000,
    );
    const run = parseRun(row);
    expect(run.status, run.errorMessage ?? '').toBe('timed_out');
    expect(run.errorMessage).toMatch(/stop time of 15 s/);
    // from the moment the run started to when it ended: the stop time and at most a 10 s grace
    const heldMs = row.finishedAt!.getTime() - row.startedAt!.getTime();
    expect(heldMs).toBeGreaterThanOrEqual(15_000);
    expect(heldMs).toBeLessThanOrEqual(25_000);
    // the load before the teardown was measured
    expect(run.summary?.requests ?? 0).toBeGreaterThan(0);
  });

  it("runs the docs' login flow script with its CSV against the lab target's /login and /me", async () => {
    w.startWorker();
    const { source, csv } = docsExample();
    const pc = await w.poolConfig('lazy docs script', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('docs login script', {
      template: 'k6-script',
      source: source.replace("duration: '10s'", "duration: '3s'"),
      files: { 'users.csv': csv },
    });
    const { run, steps } = await succeeded(pc.id, sc.id);
    // every login answered 200 with a token, and every /me accepted it
    expect(steps.login?.requests).toBeGreaterThan(10);
    expect(steps.me?.requests).toBe(steps.login?.requests);
    expect(run.summary?.failed).toBe(0);
    expect(Object.keys(run.summary?.statusCounts ?? {})).toEqual(['200']);
  });

  it('stores its checks per second and in total, and a failing checks threshold fails the run', async () => {
    w.startWorker();
    const pc = await w.poolConfig('lazy checks script', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('checks script', {
      template: 'k6-script',
      source: `import http from 'k6/http';
import { check, group } from 'k6';
export const options = {
  scenarios: { s: { executor: 'per-vu-iterations', vus: 2, iterations: 15 } },
  thresholds: { checks: ['rate>0.99'] },
};
export default function () {
  const res = http.get(__ENV.BASE_URL + '/health');
  check(res, { 'status is 200': (r) => r.status === 200 });
  group('body', () => { check(res, { 'says hello': (r) => String(r.body).includes('hello') }); });
}
`,
      thresholds: [{ metric: 'checks', expr: 'rate>0.99' }],
    });
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const row = await w.waitForStatus(
      runIds[0]!,
      ['failed', 'succeeded', 'thresholds_failed', 'aborted_system'],
      120_000,
    );
    const run = parseRun(row);
    expect(run.status, run.errorMessage ?? '').toBe('thresholds_failed');
    expect(run.thresholdResults).toEqual([
      { metric: 'checks', expr: 'rate>0.99', observed: 0.5, pass: false },
    ]);
    expect(run.summary?.checks).toEqual({
      passes: 30,
      fails: 30,
      items: [
        { name: 'status is 200', group: '', passes: 30, fails: 0 },
        { name: 'says hello', group: '::body', passes: 0, fails: 30 },
      ],
    });
    // a check is not a request: the requests all succeeded
    expect(run.summary?.failed).toBe(0);
    const seconds = (await w.db.runSecond.findMany({ where: { runId: run.id } })).map(
      parseRunSecond,
    );
    expect(sumChecks(seconds.map((s) => s.checks))).toEqual(run.summary?.checks);
  });

  it('evaluates thresholds on tagged sub-metrics, and keeps a bounded number of series', async () => {
    w.startWorker();
    const pc = await w.poolConfig('lazy sub-metrics', 'lazy', { maxConns: 2 });
    const thresholds = {
      'http_req_duration{name:me}': ['p(95)<5000'],
      'http_reqs{name:me}': ['count>1000'],
      'http_req_duration{unique:req-3}': ['max<5000'],
    };
    const sc = await w.scenario('sub-metrics script', {
      template: 'k6-script',
      source: `import http from 'k6/http';
import exec from 'k6/execution';
export const options = {
  scenarios: { s: { executor: 'constant-arrival-rate', rate: 100, timeUnit: '1s', duration: '2s', preAllocatedVUs: 10 } },
  thresholds: ${JSON.stringify(thresholds)},
};
export default function () {
  const i = exec.scenario.iterationInTest;
  http.get(__ENV.BASE_URL + '/health', { tags: { name: i % 2 ? 'me' : 'health', unique: 'req-' + i } });
}
`,
      thresholds: Object.entries(thresholds).map(([metric, [expr]]) => ({ metric, expr })),
    });
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const row = await w.waitForStatus(
      runIds[0]!,
      ['failed', 'succeeded', 'thresholds_failed', 'aborted_system'],
      120_000,
    );
    const run = parseRun(row);
    expect(run.status, run.errorMessage ?? '').toBe('thresholds_failed');
    const requests = run.summary?.requests ?? 0;
    expect(requests).toBeGreaterThan(150);
    expect(run.thresholdResults?.map((t) => [t.metric, t.pass])).toEqual([
      ['http_req_duration{name:me}', true],
      ['http_reqs{name:me}', false],
      ['http_req_duration{unique:req-3}', true],
    ]);
    const series = new Map((run.summary?.subMetrics ?? []).map((x) => [x.name, x]));
    const me = series.get('http_reqs{name:me}')!;
    expect(me.sum).toBe(run.thresholdResults?.[1]?.observed);
    // the other value of the name tag, and requests named by iteration up to the cap of 50
    expect((me.sum ?? 0) + (series.get('http_reqs{name:health}')?.sum ?? 0)).toBe(requests);
    expect([...series.keys()]).toHaveLength(50);
    expect(series.get('http_req_duration{unique:req-3}')?.count).toBe(1);
    // kept: 3 named by thresholds, name:health of two metrics, and 45 more unique values; every
    // request's duration sample of another unique value is dropped
    expect(run.summary?.subMetricsDropped).toBe(requests - 46);
    // per second too: the seconds' series add up to the run's, and no second holds more than 50
    const seconds = (await w.db.runSecond.findMany({ where: { runId: run.id } })).map(
      parseRunSecond,
    );
    const perSecond = sumCustomMetrics(seconds.map((s) => s.subMetrics));
    expect(perSecond?.['http_reqs{name:me}']?.sum).toBe(me.sum);
    expect(perSecond?.['http_req_duration{name:me}']?.trend).toEqual(
      series.get('http_req_duration{name:me}')?.trend,
    );
    expect(Object.keys(perSecond ?? {})).toHaveLength(50);
    for (const s of seconds) expect(Object.keys(s.subMetrics ?? {}).length).toBeLessThanOrEqual(50);
  });

  it("stores the script's own metrics per second and in its summary, and thresholds them", async () => {
    w.startWorker();
    const pc = await w.poolConfig('lazy custom metrics', 'lazy', { maxConns: 2 });
    const sc = await w.scenario('custom metrics script', {
      template: 'k6-script',
      source: `import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
const waited = new Trend('waited_ms', true);
const items = new Trend('items');
const orders = new Counter('orders');
const bodyBytes = new Trend('body_bytes');
export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 2, iterations: 20 } } };
export default function () {
  const res = http.get(__ENV.BASE_URL + '/health');
  waited.add(res.timings.waiting);
  items.add(__ITER % 10 === 0 ? -1 : 3);
  orders.add(2);
  bodyBytes.add(__ITER === 5 ? 5e6 : 1000);
}
`,
      thresholds: [
        { metric: 'waited_ms', expr: 'p(95)<5000' },
        { metric: 'orders', expr: 'count>80' },
      ],
    });
    const { runIds } = await w.launch([pc.id], [sc.id]);
    const row = await w.waitForStatus(
      runIds[0]!,
      ['failed', 'succeeded', 'thresholds_failed', 'aborted_system'],
      120_000,
    );
    const run = parseRun(row);
    expect(run.status, run.errorMessage ?? '').toBe('thresholds_failed');
    expect(run.thresholdResults).toEqual([
      { metric: 'waited_ms', expr: 'p(95)<5000', observed: expect.any(Number), pass: true },
      { metric: 'orders', expr: 'count>80', observed: 80, pass: false },
    ]);
    expect(run.summary?.custom?.orders).toMatchObject({ type: 'counter', sum: 80, count: 40 });
    expect(run.summary?.custom?.waited_ms).toMatchObject({ type: 'trend', count: 40 });
    expect(run.summary?.custom?.waited_ms?.histogram).toBeUndefined();
    // new Trend(name, true) holds times, new Trend(name) plain numbers; a plain trend's samples
    // below 0 (two per VU) are counted apart, as its histogram cannot hold them
    expect(run.summary?.custom?.waited_ms).toMatchObject({ time: true });
    expect(run.summary?.custom?.waited_ms).not.toHaveProperty('negative');
    expect(run.summary?.custom?.items).toMatchObject({
      type: 'trend',
      time: false,
      count: 36,
      negative: 4,
    });
    expect(run.summary?.custom?.items?.trend).toMatchObject({
      count: 36,
      p50: expect.closeTo(3, 2),
    });
    // 5e6 is above a plain trend's top (3.6e6): kept at the top, in count, and said so
    expect(run.summary?.custom?.body_bytes).toMatchObject({ count: 40, aboveTop: 2 });
    expect(run.summary?.custom?.body_bytes?.trend?.max).toBeCloseTo(3_600_000, -4);
    expect(run.summary?.custom?.items).not.toHaveProperty('aboveTop');
    expect(isTimeTrend(run.summary!.custom!.items!)).toBe(false);
    expect(isTimeTrend(run.summary!.custom!.waited_ms!)).toBe(true);
    const seconds = (await w.db.runSecond.findMany({ where: { runId: run.id } })).map(
      parseRunSecond,
    );
    const stored = sumCustomMetrics(seconds.map((s) => s.custom));
    expect(stored?.orders?.sum).toBe(80);
    expect(stored?.waited_ms?.trend).toEqual(run.summary?.custom?.waited_ms?.trend);
    expect(stored?.items).toMatchObject({ time: false, count: 36, negative: 4 });
    expect(stored?.body_bytes).toMatchObject({ count: 40, aboveTop: 2 });
    for (const s of seconds) {
      if (s.custom?.items) expect(s.custom.items.time).toBe(false);
      if (s.custom?.waited_ms) expect(s.custom.waited_ms.time).toBe(true);
    }
  });
});
