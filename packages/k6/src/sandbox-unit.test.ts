import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_INPUT,
  SANDBOX_K6,
  SandboxUnavailableError,
  bwrapArgs,
  limitMessages,
  sandboxTools,
  type SandboxSpec,
} from './sandbox';
import { ArchiveFormatError, readArchiveMetadata, rewriteArchiveMetadata } from './sandbox-tar';
import { enforceNetwork, enforcedRunFlags, proxyEnv } from './user-script';

// The pure parts of the sandbox; sandbox.test.ts runs the real thing.

let dir: string;
const LONG = `file/script/${'d'.repeat(60)}/${'f'.repeat(60)}.json`;
const metadata = {
  type: 'js',
  options: {
    scenarios: { a: { executor: 'constant-vus', vus: 2, duration: '3s' } },
    hosts: { 'target.test:80': '127.0.0.2:9' },
    maxRedirects: 10,
    blacklistIPs: [],
  },
  filename: 'file:///script/script.js',
};

/** A tar as GNU tar writes it (PAX header for the long name, a hard link), like a k6 archive. */
function tarOf(files: Record<string, string>, extra: string[] = []): Buffer {
  execFileSync('rm', ['-rf', join(dir, 'tree')]);
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, 'tree', name);
    execFileSync('mkdir', ['-p', join(path, '..')]);
    execFileSync('sh', ['-c', 'cat > "$1"', 'sh', path], { input: content });
  }
  return execFileSync('tar', [
    '--format=pax',
    '-C',
    join(dir, 'tree'),
    '-cf',
    '-',
    ...extra,
    ...Object.keys(files),
  ]);
}

function listing(tar: Uint8Array): string {
  return execFileSync('tar', ['-tvf', '-'], { input: tar }).toString();
}

function member(tar: Uint8Array, name: string): string {
  return execFileSync('tar', ['-xOf', '-', name], { input: tar }).toString();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'poolbench-sandbox-unit-'));
  await mkdir(join(dir, 'tree'), { recursive: true });
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('rewriteArchiveMetadata', () => {
  it('replaces metadata.json and keeps every other entry as it was', () => {
    const tar = tarOf({
      'metadata.json': JSON.stringify(metadata),
      data: 'export default function () {}',
      [LONG]: '{"x":1}',
    });
    const out = rewriteArchiveMetadata(tar, (m) => ({ ...m, options: { vus: 1 } }));
    expect(JSON.parse(member(out, 'metadata.json'))).toEqual({ ...metadata, options: { vus: 1 } });
    expect(member(out, 'data')).toBe('export default function () {}');
    expect(member(out, LONG)).toBe('{"x":1}');
    const names = (t: Uint8Array) =>
      listing(t)
        .split('\n')
        .map((l) => l.split(/\s+/).at(-1));
    expect(names(out)).toEqual(names(tar));
    expect(readArchiveMetadata(out)).toEqual({ ...metadata, options: { vus: 1 } });
  });

  it('refuses what it does not understand', () => {
    expect(() => readArchiveMetadata(Buffer.from('not a tar at all'.repeat(100)))).toThrow(
      ArchiveFormatError,
    );
    const noMetadata = tarOf({ data: 'x' });
    expect(() => readArchiveMetadata(noMetadata)).toThrow(/expected one metadata.json, found 0/);
    const corrupt = Buffer.from(tarOf({ 'metadata.json': '{}' }));
    corrupt[0] = 'n'.charCodeAt(0);
    expect(() => readArchiveMetadata(corrupt)).toThrow(/bad header checksum/);
    const truncated = tarOf({ 'metadata.json': JSON.stringify(metadata) }).subarray(0, 700);
    expect(() => readArchiveMetadata(truncated)).toThrow(ArchiveFormatError);
  });
});

describe('enforceNetwork', () => {
  it("replaces the script's hosts, blacklist and redirects, and keeps its scenarios", () => {
    const tar = tarOf({ 'metadata.json': JSON.stringify(metadata), data: '' });
    const hosts = { 'target.test:8080': '127.0.0.1:8080', '*': '0.0.0.0' };
    const out = readArchiveMetadata(
      enforceNetwork(tar, { hosts, blacklistIps: ['0.0.0.0/8', '128.0.0.0/1'] }),
    );
    expect(out.options).toEqual({
      scenarios: metadata.options.scenarios,
      hosts,
      blacklistIPs: ['0.0.0.0/8', '128.0.0.0/1'],
      maxRedirects: 0,
      paused: false,
    });
    expect(out.filename).toBe(metadata.filename);
  });

  it('refuses an archive that is not a JavaScript test', () => {
    const tar = tarOf({ 'metadata.json': JSON.stringify({ ...metadata, type: 'raw' }) });
    expect(() => enforceNetwork(tar, { hosts: {}, blacklistIps: [] })).toThrow(
      /not a k6 JavaScript/,
    );
  });

  it('puts flags that beat the archive on the command line', () => {
    expect(enforcedRunFlags()).toEqual(['--max-redirects', '0', '--paused=false']);
  });
});

describe('proxyEnv', () => {
  it('sends everything but the pinned names and addresses to a proxy that does not exist', () => {
    const env = proxyEnv({
      'api.example.com:443': '203.0.113.5:443',
      'api.example.com:80': '203.0.113.5:80',
      '10.0.0.5:8080': '10.0.0.5:8080',
      '*': '0.0.0.0',
    });
    expect(env.HTTPS_PROXY).toBe('http://0.0.0.0:9');
    expect(env.HTTP_PROXY).toBe('http://0.0.0.0:9');
    expect(env.NO_PROXY).toBe('api.example.com,203.0.113.5,10.0.0.5');
    expect(env.no_proxy).toBe(env.NO_PROXY);
  });

  it('exempts an IPv6 literal target, which has no hosts entry', () => {
    expect(proxyEnv({}, ['2001:db8::1']).NO_PROXY).toBe('2001:db8::1');
  });
});

describe('bwrapArgs', () => {
  const spec: SandboxSpec = {
    k6Bin: '/opt/k6/bin/k6',
    inputDir: '/tmp/poolbench-k6-x/run',
    network: false,
    memoryBytes: 256 * 1024 * 1024,
    env: {},
  };
  const libs = ['/lib/x86_64-linux-gnu/libc.so.6', '/lib64/ld-linux-x86-64.so.2'];

  function mounts(args: string[]): Array<[string, string, string]> {
    const out: Array<[string, string, string]> = [];
    for (let i = 0; i < args.length; i++) {
      if (['--ro-bind', '--ro-bind-try', '--bind', '--bind-try', '--dev-bind'].includes(args[i]!)) {
        out.push([args[i]!, args[i + 1]!, args[i + 2]!]);
        i += 2;
      } else if (['--proc', '--tmpfs', '--dev', '--mqueue'].includes(args[i]!)) {
        out.push([args[i]!, '', args[i + 1]!]);
        i += 1;
      }
    }
    return out;
  }

  it('shows k6, its libraries, CA certificates and the inputs read-only, and nothing else', () => {
    const m = mounts(bwrapArgs(spec, libs));
    expect(m).toContainEqual(['--ro-bind', spec.k6Bin, SANDBOX_K6]);
    expect(m).toContainEqual(['--ro-bind', spec.inputDir, SANDBOX_INPUT]);
    for (const lib of libs) expect(m).toContainEqual(['--ro-bind', lib, lib]);
    expect(m).toContainEqual(['--tmpfs', '', '/tmp']);
    expect(m).toContainEqual(['--dev', '', '/dev']);
    // nothing writable from the host, no /proc, nothing of /etc but the certificates
    expect(
      m.filter(([kind]) => kind === '--bind' || kind === '--dev-bind' || kind === '--proc'),
    ).toEqual([]);
    for (const [, , dest] of m.filter(([, , d]) => d.startsWith('/etc')))
      expect(dest).toMatch(/^\/etc\/(ssl\/certs|pki\/)/);
  });

  it('unshares every namespace, the network unless asked for', () => {
    const off = bwrapArgs(spec, libs);
    for (const flag of [
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--die-with-parent',
      '--new-session',
    ])
      expect(off).toContain(flag);
    expect(off).not.toContain('--share-net');
    expect(bwrapArgs({ ...spec, network: true }, libs)).toContain('--share-net');
    expect(off.join(' ')).toContain('--cap-drop ALL');
  });
});

describe('sandboxTools', () => {
  it('says what to install when bwrap is missing', async () => {
    const empty = join(dir, 'empty-bin');
    await mkdir(empty, { recursive: true });
    await writeFile(join(empty, 'README'), '');
    expect(() => sandboxTools([empty])).toThrow(SandboxUnavailableError);
    expect(() => sandboxTools([empty])).toThrow(
      /bwrap \(bubblewrap\) is not installed.*apt-get install bubblewrap/,
    );
  });
});

describe('limitMessages', () => {
  it('names the limit that ended the run', () => {
    const base = {
      memoryLimitBytes: 256 * 1024 * 1024,
      memoryPeakBytes: 256 * 1024 * 1024,
      pidsMax: 512,
      uid: 65534,
    };
    expect(limitMessages({ ...base, oomKilled: true, pidsLimitHit: false })).toEqual([
      "poolbench: the sandbox's memory limit (256 MiB) was reached: the kernel killed k6 (out of memory)",
    ]);
    expect(limitMessages({ ...base, oomKilled: false, pidsLimitHit: true })).toEqual([
      "poolbench: the sandbox's task limit (512 processes/threads) was reached",
    ]);
    expect(limitMessages({ ...base, oomKilled: false, pidsLimitHit: false })).toEqual([]);
  });
});
