import { createHash } from 'node:crypto';
import { mkdtempSync, utimesSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveCliBundle } from './serve-cli-bundle';

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

const get = (dir: string, headers: Record<string, string> = {}, method = 'GET') =>
  serveCliBundle(new Request('http://pb.test/api/v1/cli/poolbench.mjs', { method, headers }), dir);
const sha = (s: string) => createHash('sha256').update(s).digest();

function bundleDir(code: string, version = '1.2.3') {
  const dir = tempDir('pb-cli-bundle-');
  writeFileSync(join(dir, 'poolbench.mjs'), code);
  writeFileSync(join(dir, 'poolbench.json'), JSON.stringify({ version }));
  return dir;
}

describe('serveCliBundle', () => {
  it('serves the file as JavaScript with its sha256 as ETag and digest, and the version', async () => {
    const code = 'console.log("poolbench");\n';
    const res = await get(bundleDir(code));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(code);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('etag')).toBe(`"sha256-${sha(code).toString('hex')}"`);
    expect(res.headers.get('repr-digest')).toBe(`sha-256=:${sha(code).toString('base64')}:`);
    expect(res.headers.get('x-poolbench-cli-version')).toBe('1.2.3');
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 304 without a body when the client has this version (strong, weak or listed tag)', async () => {
    const dir = bundleDir('a();\n');
    const etag = (await get(dir)).headers.get('etag')!;
    for (const inm of [etag, `W/${etag}`, `"sha256-other", ${etag}`, '*']) {
      const res = await get(dir, { 'If-None-Match': inm });
      expect(res.status, inm).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
    }
    expect((await get(dir, { 'If-None-Match': '"sha256-other"' })).status).toBe(200);
  });

  it('HEAD has the headers and no body', async () => {
    const res = await get(bundleDir('b();\n'), {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('5');
    expect(await res.text()).toBe('');
  });

  it('a rebuilt bundle is served with its new ETag and version at once', async () => {
    const dir = bundleDir('one();\n', '1.0.0');
    const before = (await get(dir)).headers.get('etag');
    writeFileSync(join(dir, 'poolbench.mjs'), 'two(); // longer\n');
    writeFileSync(join(dir, 'poolbench.json'), JSON.stringify({ version: '1.0.1' }));
    utimesSync(join(dir, 'poolbench.mjs'), new Date(), new Date(Date.now() + 5000));
    const after = await get(dir);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(after.headers.get('x-poolbench-cli-version')).toBe('1.0.1');
    expect(await after.text()).toBe('two(); // longer\n');
  });

  it('a server without a built bundle says how to build it (503 problem)', async () => {
    const res = await get(tempDir('pb-cli-none-'));
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = await res.json();
    expect(body.code).toBe('unavailable');
    expect(body.detail).toContain('npx turbo run build --filter=@poolbench/cli');
  });
});
