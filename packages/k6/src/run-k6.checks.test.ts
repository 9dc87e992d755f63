import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateThresholds, ThresholdSchema } from '@poolbench/scenarios';
import { runK6 } from './run-k6';
import type { K6Second } from './summary-accumulator';
import { thresholdContextFromSummary } from './threshold-context';
import { ensureBuilt } from './testing/build';
import { startTestServer, type TestServer } from './testing/test-server';

/** k6's summary export: the `checks` rate and, under root_group, each check by group path. */
interface ExportGroup {
  checks?: Record<string, { name: string; path: string; passes: number; fails: number }>;
  groups?: Record<string, ExportGroup>;
}
interface ChecksExport {
  metrics: { checks: { passes: number; fails: number; value: number } };
  root_group: ExportGroup;
}

/** Every check of k6's summary as "group\tname" → [passes, fails]; the group is the path's part before the name. */
function k6Checks(g: ExportGroup, out = new Map<string, [number, number]>()) {
  for (const c of Object.values(g.checks ?? {})) {
    const group = c.path.slice(0, c.path.length - c.name.length - 2);
    out.set(`${group}\t${c.name}`, [c.passes, c.fails]);
  }
  for (const sub of Object.values(g.groups ?? {})) k6Checks(sub, out);
  return out;
}

/** k6's JSON output: passes and fails of every `checks` sample outside setup() and teardown(). */
async function rawChecks(path: string) {
  const out = new Map<string, [number, number]>();
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    if (!line.includes('"metric":"checks"') || !line.includes('"Point"')) continue;
    const { data } = JSON.parse(line) as {
      data: { value: number; tags: { check: string; group: string } };
    };
    const k = `${data.tags.group}\t${data.tags.check}`;
    const n = out.get(k) ?? [0, 0];
    n[data.value ? 0 : 1]++;
    out.set(k, n);
  }
  return out;
}

let server: TestServer;
beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer();
}, 600_000);
afterAll(async () => server?.close());

describe('checks through the poolbench output', () => {
  it('count every check by name and group exactly as k6 own summary does, per second and in total', async () => {
    const exportPath = join(tmpdir(), `poolbench-checks-${process.pid}.json`);
    const rawPath = join(tmpdir(), `poolbench-checks-${process.pid}.jsonl`);
    const seconds: K6Second[] = [];
    // one check that fails on a 200 (a body the server never sends), checks in nested groups,
    // and a 503 in every 10th iteration so "status is 200" fails sometimes
    const script = `
      import http from 'k6/http';
      import { check, group } from 'k6';
      export const options = {
        scenarios: { load: { executor: 'constant-arrival-rate', rate: 150, timeUnit: '1s', duration: '3s', preAllocatedVUs: 10 } },
      };
      export default function () {
        const res = http.get(__ENV.BASE + (__ITER % 10 === 0 ? '/status/503' : '/'));
        check(res, {
          'status is 200': (r) => r.status === 200,
          'body says hello': (r) => String(r.body).includes('hello, nobody'),
        });
        group('login', () => {
          check(res, { 'has a body': (r) => r.body !== null });
          group('token', () => { check(res, { 'status is 200': (r) => r.status === 200 }); });
        });
      }`;
    try {
      const r = await runK6({
        script,
        env: { BASE: server.url },
        summaryExportPath: exportPath,
        rawSamplesPath: rawPath,
        timeoutMs: 60_000,
        onSecond: (s) => {
          seconds.push(s);
        },
      });
      expect(r.endReason).toBe('completed');
      expect(r.lateSamples).toBe(0);
      const k6 = JSON.parse(await readFile(exportPath, 'utf8')) as ChecksExport;
      const theirs = k6Checks(k6.root_group);
      const raw = await rawChecks(rawPath);
      const c = r.summary.checks!;
      const ours = new Map(
        c.items.map((x): [string, [number, number]] => [
          `${x.group}\t${x.name}`,
          [x.passes, x.fails],
        ]),
      );
      expect(theirs.size).toBe(4);
      expect(ours).toEqual(theirs);
      expect(ours).toEqual(raw);
      // in the order the script first ran them
      expect(c.items.map((x) => [x.group, x.name])).toEqual([
        ['', 'status is 200'],
        ['', 'body says hello'],
        ['::login', 'has a body'],
        ['::login::token', 'status is 200'],
      ]);
      expect(c.overflow).toBeUndefined();
      expect([c.passes, c.fails]).toEqual([k6.metrics.checks.passes, k6.metrics.checks.fails]);
      const body = ours.get('\tbody says hello')!;
      expect(body[0]).toBe(0); // fails on every response, the 200s included
      const status = ours.get('\tstatus is 200')!;
      expect(status[1]).toBeGreaterThan(0);
      expect(status[0]).toBeGreaterThan(status[1]);
      // the seconds add up to the run
      const perSecond = new Map<string, [number, number]>();
      for (const s of seconds)
        for (const x of s.checks?.items ?? []) {
          const k = `${x.group}\t${x.name}`;
          const n = perSecond.get(k) ?? [0, 0];
          perSecond.set(k, [n[0] + x.passes, n[1] + x.fails]);
        }
      expect(perSecond).toEqual(theirs);
      expect(seconds.filter((s) => s.checks).length).toBeGreaterThanOrEqual(3);

      // each group's duration: every raw group_duration sample of that group, none of another
      const groupRaw = new Map<string, number[]>();
      for (const line of (await readFile(rawPath, 'utf8')).split('\n')) {
        if (!line.includes('"metric":"group_duration"') || !line.includes('"Point"')) continue;
        const { data } = JSON.parse(line) as { data: { value: number; tags: { group: string } } };
        groupRaw.set(data.tags.group, [...(groupRaw.get(data.tags.group) ?? []), data.value]);
      }
      expect([...groupRaw.keys()].sort()).toEqual(['::login', '::login::token']);
      for (const [group, values] of groupRaw) {
        const d = r.summary.custom?.[`group_duration{group:${group}}`];
        const max = Math.max(...values);
        expect(d, group).toMatchObject({ type: 'trend', count: values.length });
        expect(Math.abs(d!.trend!.max - max), group).toBeLessThan(max / 1000 + 0.001);
      }

      // the checks threshold reads k6's own rate
      const ctx = thresholdContextFromSummary(r.summary);
      expect(ctx.rate('checks')).toBeCloseTo(k6.metrics.checks.value, 12);
      const [verdict] = evaluateThresholds(
        [ThresholdSchema.parse({ metric: 'checks', expr: 'rate>0.99' })],
        ctx,
      );
      expect(verdict).toMatchObject({ metric: 'checks', pass: false });
    } finally {
      await rm(exportPath, { force: true });
      await rm(rawPath, { force: true });
    }
  }, 90_000);

  it("keep a script's own Trend, Counter, Rate and Gauge as k6 own summary and raw samples have them", async () => {
    const exportPath = join(tmpdir(), `poolbench-custom-${process.pid}.json`);
    const rawPath = join(tmpdir(), `poolbench-custom-${process.pid}.jsonl`);
    const seconds: K6Second[] = [];
    const script = `
      import http from 'k6/http';
      import { Counter, Gauge, Rate, Trend } from 'k6/metrics';
      const waited = new Trend('waited_ms', true);
      const orders = new Counter('orders');
      const fast = new Rate('fast');
      const depth = new Gauge('depth');
      export const options = {
        scenarios: { load: { executor: 'constant-arrival-rate', rate: 150, timeUnit: '1s', duration: '3s', preAllocatedVUs: 10 } },
      };
      export default function () {
        const res = http.get(__ENV.BASE + (__ITER % 10 === 0 ? '/sleep?ms=15' : '/'));
        waited.add(res.timings.waiting);
        orders.add(1 + (__ITER % 3));
        fast.add(res.timings.duration < 10);
        depth.add(__ITER % 7);
      }`;
    try {
      const r = await runK6({
        script,
        env: { BASE: server.url },
        summaryExportPath: exportPath,
        rawSamplesPath: rawPath,
        timeoutMs: 60_000,
        onSecond: (s) => {
          seconds.push(s);
        },
      });
      expect(r.endReason).toBe('completed');
      expect(r.lateSamples).toBe(0);
      const k6 = (
        JSON.parse(await readFile(exportPath, 'utf8')) as {
          metrics: Record<string, Record<string, number>>;
        }
      ).metrics;
      const c = r.summary.custom!;
      expect(Object.keys(c).sort()).toEqual(['depth', 'fast', 'orders', 'waited_ms']);
      expect(c.orders).toMatchObject({ type: 'counter', sum: k6.orders!.count });
      expect(c.fast).toMatchObject({
        type: 'rate',
        count: k6.fast!.passes! + k6.fast!.fails!,
        nonZero: k6.fast!.passes,
      });
      expect(c.depth).toMatchObject({ type: 'gauge', max: k6.depth!.max });
      // the trend: every raw sample counted, its percentiles the raw samples' (nearest rank, in
      // whole µs at 3 significant digits), and k6's own between the two samples it interpolates
      const raw: number[] = [];
      for (const line of (await readFile(rawPath, 'utf8')).split('\n'))
        if (line.includes('"metric":"waited_ms"') && line.includes('"Point"'))
          raw.push((JSON.parse(line) as { data: { value: number } }).data.value);
      raw.sort((a, b) => a - b);
      const t = c.waited_ms!.trend!;
      expect(t.count).toBe(raw.length);
      expect(raw.length).toBeGreaterThan(400);
      for (const [p, ours, theirs] of [
        [50, t.p50, k6.waited_ms!.med!],
        [90, t.p90, k6.waited_ms!['p(90)']!],
        [95, t.p95, k6.waited_ms!['p(95)']!],
        [99, t.p99, k6.waited_ms!['p(99)']!],
      ] as const) {
        const rank = raw[Math.max(1, Math.ceil((p / 100) * raw.length - 1e-9)) - 1]!;
        expect(ours, `p${p}`).toBeGreaterThanOrEqual(rank - 0.0005 - 1e-9);
        expect(ours, `p${p}`).toBeLessThanOrEqual((rank + 0.0005) * (1 + 1 / 1024) + 0.001);
        const i = ((raw.length - 1) * p) / 100;
        expect(theirs).toBeGreaterThanOrEqual(raw[Math.floor(i)]! - 1e-6);
        expect(theirs).toBeLessThanOrEqual(raw[Math.ceil(i)]! + 1e-6);
      }
      expect(Math.abs(t.max - k6.waited_ms!.max!)).toBeLessThan(k6.waited_ms!.max! / 1000 + 0.001);
      // per second: the seconds add up to the run
      const perSecond = seconds.reduce((n, s) => n + (s.custom?.orders?.sum ?? 0), 0);
      expect(perSecond).toBe(k6.orders!.count);
      expect(seconds.reduce((n, s) => n + (s.custom?.waited_ms?.count ?? 0), 0)).toBe(raw.length);
      // thresholds on them, by their kind
      const ctx = thresholdContextFromSummary(r.summary);
      const verdicts = evaluateThresholds(
        [
          { metric: 'waited_ms', expr: 'p(95)<5000' },
          { metric: 'orders', expr: `count==${k6.orders!.count}` },
          { metric: 'fast', expr: 'rate>1.5' },
          { metric: 'depth', expr: 'value<7' },
          { metric: 'orders', expr: 'p(95)<1' },
          { metric: 'never_added', expr: 'count>0' },
        ].map((x) => ThresholdSchema.parse(x)),
        ctx,
      );
      expect(verdicts.map((v) => [v.metric, v.expr, v.pass, v.observed === null])).toEqual([
        ['waited_ms', 'p(95)<5000', true, false],
        ['orders', `count==${k6.orders!.count}`, true, false],
        ['fast', 'rate>1.5', false, false],
        ['depth', 'value<7', true, false],
        // an aggregation its kind does not have, and a metric without samples: not evaluated
        ['orders', 'p(95)<1', true, true],
        ['never_added', 'count>0', true, true],
      ]);
    } finally {
      await rm(exportPath, { force: true });
      await rm(rawPath, { force: true });
    }
  }, 90_000);
});
