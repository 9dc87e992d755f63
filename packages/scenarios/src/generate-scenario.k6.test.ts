import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateScenario, SETUP_TAG_NAME } from './generate-scenario';
import type { ScenarioInput } from './scenario-schema';
import { TEMPLATE_IDS } from './templates/registry';
import { k6Binary, k6Inspect, k6Run, type K6Result } from './testing/k6-binary';
import { startRecordingServer, type RecordingServer } from './testing/recording-server';
import { TEMPLATE_EXAMPLES } from './testing/template-examples';

// Real k6 against a real local HTTP server; runs are 2-3 s and run concurrently, so servers
// are closed only after all tests.
const servers: RecordingServer[] = [];
async function server(): Promise<RecordingServer> {
  const s = await startRecordingServer();
  servers.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const metric = (r: K6Result, name: string, field: string): number => {
  const v = r.summary?.metrics[name]?.[field];
  if (typeof v !== 'number')
    throw new Error(`summary has no ${name}.${field}; k6 exit ${r.code}: ${r.stderr.slice(-2000)}`);
  return v;
};
const work = (s: RecordingServer) => s.requests.filter((q) => q.path !== '/');

async function run(input: ScenarioInput, baseUrls: string[]): Promise<K6Result> {
  const r = await k6Run(generateScenario(input).script, baseUrls);
  if (r.code !== 0) throw new Error(`k6 exited ${r.code}: ${r.stderr.slice(-3000)}`);
  return r;
}

describe('k6 binary', () => {
  it('is present (tests fail instead of skipping without it)', () => {
    expect(k6Binary()).toMatch(/k6$/);
  });
});

describe.concurrent('every template passes k6 inspect', () => {
  for (const id of TEMPLATE_IDS) {
    it(id, async () => {
      const g = generateScenario(TEMPLATE_EXAMPLES[id]);
      const r = await k6Inspect(g.script);
      expect(r.stderr).not.toMatch(/level=error/);
      expect(r.code).toBe(0);
      const inspected = JSON.parse(r.stdout) as { scenarios: Record<string, { executor: string }> };
      expect(Object.values(inspected.scenarios)[0]?.executor).toBe(
        Object.values(g.options.scenarios as Record<string, { executor: string }>)[0]?.executor,
      );
    });
  }
});

describe.concurrent('short real runs', () => {
  it('fixed-requests sends exactly N requests, round-robin over two base URLs', async () => {
    const [a, b] = [await server(), await server()];
    const r = await run(
      { ...TEMPLATE_EXAMPLES['fixed-requests'], params: { requests: 40, concurrency: 4 } },
      [a.url, b.url],
    );
    expect(work(a).length).toBe(20);
    expect(work(b).length).toBe(20);
    expect(metric(r, 'iterations', 'count')).toBe(40);
    // plus the one readiness request of setup()
    expect(metric(r, 'http_reqs', 'count')).toBe(41);
  });

  it('constant-arrival-rate hits its rate', async () => {
    const s = await server();
    const r = await run(TEMPLATE_EXAMPLES['constant-arrival-rate'], [s.url]);
    // 50/s for 2 s; k6 starts iterations on a fixed schedule and counts the ones it could not start.
    const dropped = r.summary?.metrics.dropped_iterations?.count;
    const scheduled = work(s).length + (typeof dropped === 'number' ? dropped : 0);
    expect(scheduled).toBeGreaterThanOrEqual(98);
    expect(scheduled).toBeLessThanOrEqual(101);
    expect(work(s).length).toBeGreaterThanOrEqual(95);
  });

  it('arrival-rate-sweep runs each step at its rate', async () => {
    const s = await server();
    await run(TEMPLATE_EXAMPLES['arrival-rate-sweep'], [s.url]);
    const reqs = work(s);
    // 20 + 40 + 60 over three 1 s steps
    expect(reqs.length).toBeGreaterThanOrEqual(117);
    expect(reqs.length).toBeLessThanOrEqual(122);
    const t0 = Math.min(...reqs.map((q) => q.atMs));
    const inStep = (i: number) =>
      reqs.filter((q) => q.atMs - t0 >= i * 1000 + 100 && q.atMs - t0 < (i + 1) * 1000 - 100)
        .length;
    // 3x in truth; a stall on a busy machine spills requests into the next step's window, so the
    // check is that the rate clearly rose (a sweep that did not step gives 1x)
    expect(inStep(2)).toBeGreaterThan(inStep(0) * 1.5);
  });

  it('closed-model templates reach their VU counts', async () => {
    const s = await server();
    const results = await Promise.all(
      (['cold-start-burst', 'ramp-up', 'sustained'] as const).map((id) =>
        run(TEMPLATE_EXAMPLES[id], [s.url]),
      ),
    );
    expect(results.map((r) => metric(r, 'vus_max', 'value'))).toEqual([5, 4, 3]);
    // sustained: 3 VUs x 2 s with 100 ms think time, at most 21 iterations each
    const sustained = metric(results[2] as K6Result, 'iterations', 'count');
    expect(sustained).toBeGreaterThan(30);
    expect(sustained).toBeLessThanOrEqual(63);
  });

  it('spike raises the request rate during the spike', async () => {
    const s = await server();
    const r = await run(TEMPLATE_EXAMPLES.spike, [s.url]);
    expect(metric(r, 'vus_max', 'value')).toBe(5);
    const reqs = work(s);
    const t0 = Math.min(...reqs.map((q) => q.atMs));
    const between = (from: number, to: number) =>
      reqs.filter((q) => q.atMs - t0 >= from && q.atMs - t0 < to).length;
    // baseline 1 VU for 1 s, spike 5 VUs for 1 s, baseline 1 VU for 1 s
    expect(between(1100, 1900)).toBeGreaterThan(between(100, 900) * 2);
    expect(between(1100, 1900)).toBeGreaterThan(between(2100, 2900) * 2);
  });

  it('sends payloads of the exact size, built per VU', async () => {
    const s = await server();
    await run(
      {
        template: 'fixed-requests',
        params: { requests: 6, concurrency: 2 },
        requests: [
          {
            name: 'small',
            method: 'POST',
            path: '/upload',
            query: { size: 'small' },
            body: { kind: 'bytes', sizeBytes: 20 * 1024 },
          },
          {
            name: 'big',
            method: 'POST',
            path: '/upload',
            query: { size: 'big' },
            body: { kind: 'bytes', sizeBytes: 1024 * 1024 },
          },
          {
            name: 'json',
            method: 'PUT',
            path: '/json',
            body: { kind: 'json', value: { a: [1, 2], b: 'é' } },
          },
        ],
      },
      [s.url],
    );
    const reqs = work(s);
    expect(reqs.length).toBe(6);
    for (const q of reqs) {
      if (q.path === '/json') {
        expect(q.bodyBytes).toBe(Buffer.byteLength(JSON.stringify({ a: [1, 2], b: 'é' })));
        expect(q.headers['content-type']).toBe('application/json');
      } else {
        expect(q.bodyBytes).toBe(q.query.get('size') === 'big' ? 1024 * 1024 : 20 * 1024);
        expect(q.headers['content-type']).toBe('application/octet-stream');
      }
    }
  });

  it('sets the priority header on the given fraction and honours mix weights and random query ranges', async () => {
    const s = await server();
    await run(
      {
        template: 'fixed-requests',
        params: { requests: 400, concurrency: 4 },
        requests: [
          {
            name: 'read',
            path: '/work',
            query: { ms: { randomInt: { min: 10, max: 800 } }, op: 'read' },
            weight: 3,
            priority: { fraction: 0.25 },
          },
          {
            name: 'write',
            path: '/work',
            query: { ms: { randomInt: { min: 10, max: 800 } }, op: 'write' },
            weight: 1,
          },
        ],
      },
      [s.url],
    );
    const reqs = work(s);
    expect(reqs.length).toBe(400);
    const reads = reqs.filter((q) => q.query.get('op') === 'read');
    // 3:1 mix: 300 reads expected, binomial sd ~8.7
    expect(reads.length).toBeGreaterThan(255);
    expect(reads.length).toBeLessThan(345);
    const high = reads.filter((q) => q.headers['x-priority'] === 'high').length;
    expect(high / reads.length).toBeGreaterThan(0.13);
    expect(high / reads.length).toBeLessThan(0.37);
    expect(
      reqs.filter((q) => q.query.get('op') === 'write' && q.headers['x-priority'] !== undefined),
    ).toEqual([]);
    const ms = reqs.map((q) => Number(q.query.get('ms')));
    expect(ms.every((v) => Number.isInteger(v) && v >= 10 && v <= 800)).toBe(true);
    expect(Math.min(...ms)).toBeLessThan(200);
    expect(Math.max(...ms)).toBeGreaterThan(600);
  });

  it('counts 503 as failed and tags requests by name, not by URL', async () => {
    const s = await server();
    const input: ScenarioInput = {
      template: 'fixed-requests',
      params: { requests: 10, concurrency: 1 },
      requests: [{ path: '/fail', query: { n: { randomInt: { min: 1, max: 1_000_000 } } } }],
    };
    const r = await k6Run(generateScenario(input).script, [s.url]);
    expect(metric(r, 'http_req_failed', 'passes')).toBe(10); // "passes" = samples where failed == true
    expect(metric(r, 'http_req_failed', 'fails')).toBe(1); // setup()'s readiness request
    expect(new Set(work(s).map((q) => q.query.get('n'))).size).toBeGreaterThan(1);
  });

  it('tags every request with its name (checked in k6 JSON output)', async () => {
    const s = await server();
    const input: ScenarioInput = {
      template: 'fixed-requests',
      params: { requests: 5, concurrency: 1 },
      requests: [{ path: '/work', query: { n: { randomInt: { min: 1, max: 1_000_000 } } } }],
    };
    let names: string[] = [];
    let urls: string[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'pb-points-'));
    try {
      const file = join(dir, 'points.json');
      const r = await k6Run(generateScenario(input).script, [s.url], {
        extraArgs: () => ['--out', `json=${file}`],
      });
      expect(r.code).toBe(0);
      const points = (await readFile(file, 'utf8'))
        .split('\n')
        .filter((l) => l.includes('"metric":"http_reqs"') && l.includes('"type":"Point"'))
        .map((l) => JSON.parse(l) as { data: { tags: Record<string, string> } });
      names = points.map((p) => p.data.tags.name ?? '');
      urls = points.map((p) => p.data.tags.url ?? '');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(names.filter((n) => n === 'GET /work').length).toBe(5);
    expect(names.filter((n) => n === SETUP_TAG_NAME).length).toBe(1);
    // k6 reports the name in place of the URL too, so random query values add no series.
    expect(urls.some((u) => u.includes('n='))).toBe(false);
    expect(new Set(work(s).map((q) => q.query.get('n'))).size).toBeGreaterThan(1);
  });

  it('setup() fails fast when the first target does not answer', async () => {
    const s = await startRecordingServer();
    const deadUrl = s.url;
    await s.close();
    const r = await k6Run(generateScenario(TEMPLATE_EXAMPLES.sustained).script, [deadUrl]);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toMatch(/does not answer/);
    expect(r.summary?.metrics.iterations?.count ?? 0).toBe(0);
  });

  it('user text stays data: an injection attempt arrives verbatim as a header value', async () => {
    const s = await server();
    const evil = `'); exec.test.abort('pwned'); (' \${__ENV.X} */ //`;
    await run(
      {
        template: 'fixed-requests',
        params: { requests: 2, concurrency: 1 },
        requests: [{ path: '/work', headers: { 'X-Evil': evil }, query: { q: `"); fail("x` } }],
      },
      [s.url],
    );
    expect(work(s).map((q) => q.headers['x-evil'])).toEqual([evil, evil]);
    expect(work(s).map((q) => q.query.get('q'))).toEqual([`"); fail("x`, `"); fail("x`]);
  });
});
