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
});
