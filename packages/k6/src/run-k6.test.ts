import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { K6BinaryError } from './k6-binary';
import { runK6 } from './run-k6';
import type { K6Second } from './summary-accumulator';
import { ensureBuilt } from './testing/build';
import { startTestServer, type TestServer } from './testing/test-server';

let server: TestServer;
beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer();
}, 600_000);
afterAll(async () => server?.close());

const longScript = `
  import http from 'k6/http';
  export const options = { vus: 5, duration: '60s' };
  export default function () { http.get(__ENV.BASE + '/sleep?ms=5'); }`;

function processGone(pid: number | undefined): boolean {
  if (pid === undefined) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe.concurrent('runK6', () => {
  it('stops gracefully on abort and keeps the seconds written so far', async () => {
    const ac = new AbortController();
    const seen: K6Second[] = [];
    const started = Date.now();
    const r = await runK6({
      script: longScript,
      env: { BASE: server.url },
      signal: ac.signal,
      onSecond: (s) => {
        seen.push(s);
        if (seen.length === 2) ac.abort();
      },
    });
    expect(r.endReason).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect([r.exitCode, r.outputComplete]).toEqual([105, true]); // 105: k6's "external abort"
    expect(r.testDurationMs).toBeGreaterThan(1500);
    expect(r.testDurationMs).toBeLessThan(Date.now() - started);
    expect(r.summary.seconds).toBeGreaterThanOrEqual(2);
    expect(r.summary.seconds).toBe(seen.length);
    expect(r.summary.requests).toBe(seen.reduce((n, s) => n + s.requests, 0));
    expect(r.summary.requests).toBeGreaterThan(0);
    expect(processGone(r.pid)).toBe(true);
  });

  it('kills k6 when it outlives the stop grace, still returning what it wrote', async () => {
    const ac = new AbortController();
    let seen = 0;
    const started = Date.now();
    const r = await runK6({
      // k6 still runs teardown after SIGINT; a slow one keeps it alive past the grace.
      script: `${longScript}
        import { sleep } from 'k6';
        export function teardown() { sleep(30); }`,
      env: { BASE: server.url },
      signal: ac.signal,
      stopGraceMs: 1500,
      onSecond: () => {
        if (++seen === 2) ac.abort();
      },
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.endReason).toBe('aborted');
    expect([r.exitCode, r.exitSignal, r.outputComplete]).toEqual([null, 'SIGKILL', false]);
    expect(r.summary.seconds).toBeGreaterThanOrEqual(2);
    expect(r.summary.trends.http_req_duration?.p50).toBeGreaterThanOrEqual(5);
    expect(processGone(r.pid)).toBe(true);
  });

  it('ends a run that exceeds timeoutMs as timed_out', async () => {
    const r = await runK6({ script: longScript, env: { BASE: server.url }, timeoutMs: 2500 });
    expect(r.endReason).toBe('timed_out');
    expect(r.outputComplete).toBe(true);
    expect(r.summary.requests).toBeGreaterThan(0);
  });

  it('reports a script error with k6 own message', async () => {
    const r = await runK6({
      script: "throw new Error('boom-in-init'); export default function () {}",
      timeoutMs: 30_000,
    });
    expect(r.endReason).toBe('k6_error');
    expect(r.exitCode).toBe(107);
    expect(r.stderrTail.join('\n')).toContain('boom-in-init');
    const syntax = await runK6({
      script: 'export default function () { this is not js',
      timeoutMs: 30_000,
    });
    expect(syntax.endReason).toBe('k6_error');
    expect(syntax.stderrTail.join('\n')).toMatch(/Unexpected/);
  });

  it('rejects a missing binary with a clear error, and a binary without the output as k6_error', async () => {
    await expect(runK6({ script: '', k6Bin: '/nonexistent/k6' })).rejects.toThrow(K6BinaryError);
    await expect(runK6({ script: '', k6Bin: '/nonexistent/k6' })).rejects.toThrow(/build-k6\.sh/);
    const dir = await mkdtemp(join(tmpdir(), 'poolbench-fake-k6-'));
    try {
      const fake = join(dir, 'k6');
      await writeFile(fake, '#!/bin/sh\nexit 0\n');
      await chmod(fake, 0o755);
      const r = await runK6({ script: '', k6Bin: fake, timeoutMs: 10_000 });
      expect(r.endReason).toBe('k6_error');
      expect(r.stderrTail.join('\n')).toMatch(/poolbench output/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('hides the process environment, passes env, and enforces the IP blacklist', async () => {
    process.env.POOLBENCH_SECRET_FOR_TEST = 'leak';
    const port = new URL(server.url).port;
    const r = await runK6({
      script: `
        import http from 'k6/http';
        export const options = { iterations: 4, vus: 1 };
        export default function () {
          const ok = __ENV.POOLBENCH_SECRET_FOR_TEST === undefined && __ENV.GIVEN === 'yes';
          http.get(__ENV.BASE + (ok ? '/status/201' : '/status/500'));
          http.get('http://127.0.0.2:${port}/');
        }`,
      env: { BASE: server.url, GIVEN: 'yes' },
      blacklistIps: ['127.0.0.2/32'],
      timeoutMs: 30_000,
    });
    delete process.env.POOLBENCH_SECRET_FOR_TEST;
    expect(r.endReason).toBe('completed');
    expect(r.summary.status).toEqual({ '201': 4, '0': 4 });
    expect(r.summary.failed).toBe(4);
  });

  it('rejects env names k6 would misparse', async () => {
    await expect(runK6({ script: '', env: { 'A=B': 'x' } })).rejects.toThrow(/invalid k6 env name/);
  });

  it('writes files only beside the script: no folders, never over script.js', async () => {
    await expect(runK6({ script: '', files: { '../escape.csv': 'x' } })).rejects.toThrow(
      'invalid script file name "../escape.csv": must be a plain file name',
    );
    await expect(runK6({ script: '', files: { 'script.js': 'x' } })).rejects.toThrow(
      'invalid script file name "script.js": script.js is the script itself',
    );
  });
});
