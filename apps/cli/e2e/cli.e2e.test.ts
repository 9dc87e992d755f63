import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TESTED_RUN_METRIC_KEYS } from '@poolbench/contracts/run-metric-keys';
import { verifyEmail } from './verify-email';
import type { SavedBaseline } from '../src/baseline';

// every temporary folder this file makes is removed when it ends, pass or fail
const tempDirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * End to end on the running stack (scripts/stack.sh start): sign up, create a lab target, pool
 * configs and an API token through the same tRPC calls the UI makes, then run the real CLI, which
 * starts real k6 runs on the worker against the managed lab target. The baseline runs through the
 * workspace bin (tsx); the candidate through the bundle the server serves, downloaded into a temp
 * dir outside the workspace and run with plain node, as docs/ci.md tells CI to do.
 */
const BASE = (process.env.POOLBENCH_E2E_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const BIN = fileURLToPath(new URL('../bin/poolbench.js', import.meta.url));
const { version: VERSION } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };
const dir = tempDir('poolbench-cli-e2e-');
const bundleDir = tempDir('poolbench-cli-bundle-');
const BUNDLE = join(bundleDir, 'poolbench.mjs');

let cookie = '';
async function trpc<T>(path: string, input: unknown): Promise<T> {
  const res = await fetch(`${BASE}/api/trpc/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', origin: BASE, cookie },
    body: JSON.stringify({ json: input }),
  });
  const body = (await res.json()) as { result?: { data?: { json?: T } }; error?: unknown };
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(body.error)}`);
  return body.result!.data!.json!;
}

/** `poolbench run ...`; `via: 'bundle'` runs the downloaded file with plain node from its temp dir: no tsx, no node_modules. */
const cli = (args: string[], env: Record<string, string>, via: 'bin' | 'bundle' = 'bin') =>
  via === 'bin'
    ? node(BIN, ['run', ...args], env, dir)
    : node(BUNDLE, ['run', ...args], env, bundleDir);

function node(
  script: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

// 5 repeats per side: 4 vs 4 runs can reach p = 0.029 per metric at best, and Holm across the
// primary metrics (4 by default, or the gated ones) lifts that above 0.05 unless one metric is
// gated; 5 vs 5 reaches 0.008, enough for one metric among the 4 primaries or the 2 gated here.
// 40 requests/s, each holding a DB connection for 50 ms: 10 connections serve it easily (~2 busy),
// 1 connection can serve 20/s, so requests queue for the pool and p99 grows far beyond 5 %. VUs
// enough for that queue (up to ~3 s × 40/s), so k6 drops no iteration: a run that did not offer
// its load is left out of verdicts, and the queue is the regression this gate must see.
const LOAD = [
  '--scenario-template',
  'constant-arrival-rate',
  '--scenario-params',
  '{"ratePerSec":40,"durationMs":3000,"preAllocatedVUs":100,"maxVUs":200}',
  '--request',
  'GET /work?ms=50',
  '--repeats',
  '5',
];

describe(`poolbench CLI against ${BASE}`, () => {
  let env: Record<string, string>;

  beforeAll(async () => {
    let health: Response | Error = new Error('not asked');
    for (let i = 0; i < 30 && (health instanceof Error || !health.ok); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 1000));
      health = await fetch(`${BASE}/api/health`).catch((e: unknown) => e as Error);
    }
    if (health instanceof Error || !health.ok)
      throw new Error(
        `PoolBench is not healthy at ${BASE}: start it with scripts/stack.sh start (${health instanceof Error ? health.message : health.status})`,
      );
    const email = `cli-${randomBytes(4).toString('hex')}@example.test`;
    const res = await fetch(`${BASE}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', origin: BASE },
      body: JSON.stringify({ name: 'CLI e2e', email, password: 'correct-horse-battery' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    await verifyEmail(BASE, cookie, email);
    const target = await trpc<{ id: string }>('target.create', {
      kind: 'managed',
      name: 'Lab target',
      requestDefaults: { method: 'GET', path: '/health' },
    });
    for (const n of [1, 10]) {
      await trpc('poolConfig.create', {
        targetId: target.id,
        name: `${n} conn`,
        config: { strategy: 'fixed', params: { maxConns: n, acquireTimeoutMs: 5000 } },
      });
    }
    const token = await trpc<{ token: string }>('apiToken.create', {
      name: 'e2e',
      scopes: ['runs:read', 'runs:write'],
      expiresInDays: 1,
    });
    expect(token.token).toMatch(/^pb_/);
    env = { POOLBENCH_URL: BASE, POOLBENCH_TOKEN: token.token };
  });

  it('the server serves the CLI as one file with its sha256 as ETag and its version', async () => {
    const res = await fetch(`${BASE}/api/v1/cli/poolbench.mjs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('x-poolbench-cli-version')).toBe(VERSION);
    const bytes = Buffer.from(await res.arrayBuffer());
    const etag = `"sha256-${createHash('sha256').update(bytes).digest('hex')}"`;
    expect(res.headers.get('etag')).toBe(etag);
    expect(bytes.toString('utf8')).not.toMatch(/from ["'](?!node:)[^"']+["']/); // imports only node: builtins
    writeFileSync(BUNDLE, bytes);
    expect(
      (await fetch(`${BASE}/api/v1/cli/poolbench.mjs`, { headers: { 'If-None-Match': etag } }))
        .status,
    ).toBe(304);
    const v = await node(BUNDLE, ['--version'], {}, bundleDir);
    expect([v.code, v.stdout.trim()]).toEqual([0, `poolbench ${VERSION}`]);
  });

  it.each(['bin', 'bundle'] as const)(
    '%s: a usage error exits 2 and a bad token exits 3 with the problem code',
    async (via) => {
      expect((await cli(['--target', 'Lab target'], env, via)).code).toBe(2);
      const typo = await cli(
        ['--experiment', 'x', '--baseline', 'main', '--metrics', 'p99'],
        env,
        via,
      );
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain('--metrics: unknown metric "p99"; valid keys: rps, p50Ms');
      const bad = await cli(['--experiment', 'x'], { ...env, POOLBENCH_TOKEN: 'pb_wrong' }, via);
      expect(bad.code).toBe(3);
      expect(bad.stderr).toContain('token_malformed');
    },
  );

  it('a short lab experiment passes (exit 0), writes JUnit and becomes the baseline "main"', async () => {
    const junit = join(dir, 'main.xml');
    const r = await cli(
      [
        '--target',
        'Lab target',
        '--pool-config',
        '10 conn',
        ...LOAD,
        '--name',
        'main',
        '--baseline',
        'main',
        '--save-baseline',
        'main',
        '--junit',
        junit,
        '--markdown',
        join(dir, 'main.md'),
      ],
      env,
    );
    console.log(r.stdout, r.stderr);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(junit)).toBe(true);
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<testsuites name="poolbench" tests="\d+" failures="0"/,
    );
    expect(r.stderr).toContain('saved as baseline "main"');
  });

  it('baseline set, list and remove: a finished experiment only, listed with its id, removed by it', async () => {
    const bin = (args: string[]) => node(BIN, args, env, dir);
    const listed = await bin([
      'baseline',
      'list',
      '--name',
      'main',
      '--target',
      'Lab target',
      '--json',
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    const [main] = (JSON.parse(listed.stdout) as { baselines: SavedBaseline[] }).baselines;
    expect(main).toMatchObject({ name: 'main', target: { name: 'Lab target' }, runId: null });

    const set = await bin(['baseline', 'set', 'release-1', '--experiment', main!.experimentId!]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(
      /^saved baseline "release-1" \(\w+\): Lab target · .+ · 10 conn from experiment main$/m,
    );
    const text = await bin(['baseline', 'list', '--name', 'release-1']);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`  release-1  Lab target · `);
    expect(lines[0]).toContain(`experiment ${main!.experimentId}`);
    const id = lines[0]!.split(' ')[0]!;

    const removed = await bin(['baseline', 'remove', id]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(new RegExp(`^removed ${id}  release-1  Lab target`));
    const none = await bin(['baseline', 'list', '--name', 'release-1']);
    expect(none.stdout).toMatch(/^no baselines saved yet/);
    const again = await bin(['baseline', 'remove', id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^poolbench: .*not_found/);

    // runs still queued or running are no baseline yet: refused before anything is saved
    const started = await cli(['--experiment', 'main', '--json'], env);
    expect(started.code, started.stderr).toBe(0);
    const runningId = (JSON.parse(started.stdout) as { experiment: { id: string } }).experiment.id;
    const early = await bin(['baseline', 'set', 'too-early', '--experiment', runningId]);
    await bin(['cancel', runningId]);
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/runs not finished; wait for it/);
    expect((await bin(['baseline', 'list', '--name', 'too-early'])).stdout).toMatch(
      /^no baselines/,
    );
  });

  it('the served bundle, gated on p99 and throughput: 1 connection against the 10-connection baseline is a regression (exit 1) naming metric, change and interval', async () => {
    const junit = join(bundleDir, 'pr.xml');
    const md = join(bundleDir, 'pr.md');
    const r = await cli(
      [
        '--target',
        'Lab target',
        '--pool-config',
        '1 conn',
        ...LOAD,
        '--name',
        'pr',
        '--baseline',
        'main',
        '--metrics',
        'p99Ms,rps',
        '--fail-on',
        'regression',
        '--junit',
        'pr.xml',
        '--markdown',
        'pr.md',
      ],
      env,
      'bundle',
    );
    console.log(r.stdout, r.stderr, readFileSync(md, 'utf8'));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'Compared with baseline "main" (gated on: rps, p99Ms; over whole runs):',
    );
    expect(r.stdout).toMatch(
      /REGRESSION\s+Latency p99: [\d.]+ ms -> [\d.]+ ms, change \+[\d.]+ % \([\d.]+ % CI \+[\d.]+ % … \+[\d.]+ %\)/,
    );
    // the interval's achieved coverage (96.8 % with 5 vs 5 runs), not a nominal 95 %
    expect(r.stdout).not.toContain('(95 % CI');
    expect(r.stdout).not.toContain('Latency p50'); // not gated on, so not judged
    expect(readFileSync(junit, 'utf8')).toContain('<failure message="Latency p99 regressed');
    expect(readFileSync(junit, 'utf8')).toContain('<property name="gatedOn" value="rps, p99Ms"/>');
    expect(readFileSync(md, 'utf8')).toContain('gated on: `rps`, `p99Ms`');
    expect(readFileSync(md, 'utf8')).toContain('❌ worse');

    // the same experiment through the REST API: every tested metric by default, a bad key is a 422 on `metrics`
    const id = /started pr \(([\w-]+)\)/.exec(r.stderr)?.[1];
    expect(id, r.stderr).toBeDefined();
    const get = (q: string) =>
      fetch(`${BASE}/api/v1/experiments/${id}/compare?${q}`, {
        headers: { Authorization: `Bearer ${env.POOLBENCH_TOKEN}` },
      });
    const all = (await (await get('baseline=main')).json()) as {
      gatedOn: string[];
      cells: { metrics: unknown[] }[];
    };
    // every tested metric when none is chosen
    expect([...all.gatedOn].sort()).toEqual([...TESTED_RUN_METRIC_KEYS].sort());
    expect(all.cells[0]!.metrics.length).toBeGreaterThan(2);
    const windowed = (await (await get('baseline=main&metrics=p99Ms&from=1&to=4')).json()) as {
      window: unknown;
      cells: { metrics: Array<{ key: string }> }[];
    };
    expect(windowed.window).toEqual({ from: 1, to: 4 });
    expect(windowed.cells[0]!.metrics.map((m) => m.key)).toEqual(['p99Ms']);
    const bad = await get('baseline=main&metrics=p99Ms,latency');
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { problems: unknown[] }).problems).toEqual([
      {
        path: 'metrics',
        message: expect.stringContaining('unknown metric "latency"; valid keys: rps,'),
      },
    ]);
  });
});
