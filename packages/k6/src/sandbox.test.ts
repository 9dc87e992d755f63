import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { k6BlacklistFor, k6HostsFor } from '@poolbench/contracts/net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveK6Bin } from './k6-binary';
import { runK6, type K6RunResult, type RunK6Options } from './run-k6';
import { SANDBOX_INPUT, SandboxUnavailableError, handOverToSandbox, sandboxK6 } from './sandbox';
import type { K6Second } from './summary-accumulator';
import { ensureBuilt } from './testing/build';
import {
  ARCHIVE_FILE,
  archiveUserScript,
  enforceNetwork,
  proxyEnv,
  validateUserScript,
} from './user-script';

// Hostile scripts run through the real k6 build inside the real bwrap sandbox and cgroups.
// Every test asserts the refusal and that the secret it went for appears nowhere k6 wrote.

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const MiB = 1024 * 1024;
const WORKER_SECRET = 'worker-env-secret-5b9e1f0c';
const FILE_SECRET = 'env-file-secret-7d3a2c44';
const SIBLING_SECRET = 'other-run-secret-91c0e7aa';

interface CountingServer {
  server: Server;
  port: number;
  connections: number;
  requests: string[];
}

async function countingServer(
  host: string,
  handler: (path: string, res: ServerResponse) => void = (_p, res) => res.end('ok'),
): Promise<CountingServer> {
  const s: CountingServer = { server: createHttpServer(), port: 0, connections: 0, requests: [] };
  s.server.on('connection', () => s.connections++);
  s.server.on('request', (req, res) => {
    s.requests.push(req.url ?? '');
    handler(req.url ?? '', res);
  });
  await new Promise<void>((r) => s.server.listen(0, host, r));
  s.port = (s.server.address() as { port: number }).port;
  return s;
}

let target: CountingServer;
let forbidden: CountingServer;
let pins: { hosts: Record<string, string>; blacklistIps: string[] };
let secretDir: string;
let secretFile: string;
let siblingRun: string;

beforeAll(async () => {
  ensureBuilt();
  forbidden = await countingServer('127.0.0.2');
  target = await countingServer('127.0.0.1', (path, res) => {
    if (path.startsWith('/redirect')) {
      res.writeHead(302, { location: `http://127.0.0.2:${forbidden.port}/followed` });
      res.end();
    } else res.end('ok');
  });
  // The worker's pins for a target named target.test at 127.0.0.1 (as the worker computes them).
  pins = {
    hosts: k6HostsFor([{ host: 'target.test', port: target.port, address: '127.0.0.1' }]),
    blacklistIps: k6BlacklistFor(['127.0.0.1']),
  };
  process.env.POOLBENCH_TEST_WORKER_SECRET = WORKER_SECRET;
  secretDir = await mkdtemp(join(tmpdir(), 'poolbench-secret-'));
  secretFile = join(secretDir, 'poolbench.env');
  await writeFile(secretFile, `SESSION_SECRET=${FILE_SECRET}\n`, { mode: 0o644 });
  // Another run's private directory, as runK6 lays it out.
  siblingRun = await mkdtemp(join(tmpdir(), 'poolbench-k6-'));
  await writeFile(join(siblingRun, 'script.js'), `// ${SIBLING_SECRET}`, { mode: 0o644 });
}, 600_000);

afterAll(async () => {
  delete process.env.POOLBENCH_TEST_WORKER_SECRET;
  target?.server.close();
  forbidden?.server.close();
  await rm(secretDir, { recursive: true, force: true });
  await rm(siblingRun, { recursive: true, force: true });
});

/**
 * The run cgroups of this process under one controller. The controller's root must be readable
 * (a /sys remounted by `ip netns exec` hides it, and a check that cannot look must fail); only the
 * parent folder may be missing, when no run ever asked for that controller.
 */
async function ownRunCgroups(controller: string): Promise<string[]> {
  const root = `/sys/fs/cgroup/${controller}`;
  await readdir(root);
  const parent = join(root, process.env.POOLBENCH_CGROUP_PARENT ?? 'poolbench');
  const names = await readdir(parent).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return names.filter((n) => n.startsWith(`run-${process.pid}-`));
}

// Every run removes its cgroups, whatever happened in it.
afterEach(async () => {
  for (const controller of ['memory', 'pids', 'cpu']) {
    expect(await ownRunCgroups(controller)).toEqual([]);
  }
});

function sandboxed(script: string, extra: Partial<RunK6Options> = {}): Promise<K6RunResult> {
  return runK6({
    script,
    blacklistIps: pins.blacklistIps,
    sandbox: { memoryBytes: 256 * MiB, hosts: pins.hosts },
    timeoutMs: 60_000,
    ...extra,
  });
}

/** Everything k6 wrote that the worker keeps: stdout, stderr, error. */
function everything(r: K6RunResult): string {
  return [...r.stdoutTail, ...r.stderrTail, r.k6Error ?? ''].join('\n');
}

function expectNoSecret(text: string): void {
  for (const secret of [WORKER_SECRET, FILE_SECRET, SIBLING_SECRET])
    expect(text).not.toContain(secret);
}

describe('validateUserScript', () => {
  it('returns the resolved options of a script with its own scenarios', async () => {
    const v = await validateUserScript(
      `import http from 'k6/http';
       const users = JSON.parse(open('./users.json'));
       export const options = {
         scenarios: {
           browse: { executor: 'constant-vus', vus: 2, duration: '5s' },
           buy: { executor: 'shared-iterations', vus: 1, iterations: 3, exec: 'buy', startTime: '1s' },
         },
         thresholds: { http_req_duration: ['p(95)<500'], 'http_req_failed{scenario:buy}': ['rate<0.01'] },
       };
       export function setup() { return users; }
       export default function () {}
       export function buy() {}`,
      { 'users.json': '[{"name":"a"}]' },
    );
    expect(v).toMatchObject({
      ok: true,
      options: {
        scenarios: {
          browse: { executor: 'constant-vus', vus: 2, duration: '5s' },
          buy: {
            executor: 'shared-iterations',
            vus: 1,
            iterations: 3,
            exec: 'buy',
            startTime: '1s',
          },
        },
        thresholds: {
          http_req_duration: ['p(95)<500'],
          'http_req_failed{scenario:buy}': ['rate<0.01'],
        },
      },
      maxVUs: 3,
    });
  });

  it('returns k6 shortcut options as the scenario k6 derives from them', async () => {
    const v = await validateUserScript(
      `export const options = { vus: 4, duration: '10s' }; export default function () {}`,
    );
    expect(v).toMatchObject({
      ok: true,
      options: { scenarios: { default: { executor: 'constant-vus', vus: 4, duration: '10s' } } },
    });
  });

  it("returns a syntax error with k6's message and line", async () => {
    const v = await validateUserScript('export default function () {\n  let a = ;\n}\n');
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.error).toMatch(/script\.js: Line 2:11 Unexpected token/);
  });

  it('refuses a remote import: the check has no network', async () => {
    const v = await validateUserScript(
      `import x from 'https://example.com/x.js';\nexport default function () { x(); }`,
    );
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.error).toMatch(/^remote modules are not allowed/);
      expect(v.error).toContain('https://example.com/x.js');
    }
  });

  it('knows no k6/x/* module beyond the build, and never fetches another k6 build', async () => {
    const v = await validateUserScript(
      `import exec from 'k6/x/exec';\nexport default function () { exec.command('id'); }`,
    );
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.error).toMatch(/unknown modules \["k6\/x\/exec"\]/);
      expect(v.error).not.toMatch(/provision|building binary/);
    }
    // a "use k6" directive asks k6 for another build; the sandbox's k6 ignores it
    const d = await validateUserScript(`"use k6 > 1.9";\nexport default function () {}`);
    expect(d.ok).toBe(true);
  });

  it('stops init code that never ends at its time limit', async () => {
    const started = Date.now();
    const v = await validateUserScript(
      'while (true) {}\nexport default function () {}',
      {},
      { timeoutMs: 2000 },
    );
    expect(v).toEqual({ ok: false, error: 'poolbench: stopped after 2000 ms' });
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses to open files outside the script: env file, /proc, another run, the database', async () => {
    for (const path of [
      secretFile,
      join(REPO, '.data/poolbench.env'),
      join(REPO, '.data/pg/PG_VERSION'),
      '/proc/1/environ',
      `/proc/${process.pid}/environ`,
      '/proc/self/environ',
      join(siblingRun, 'script.js'),
      '/etc/passwd',
    ]) {
      const v = await validateUserScript(
        `const s = open(${JSON.stringify(path)});\nexport default function () { console.log(s); }`,
      );
      expect(v.ok, path).toBe(false);
      if (!v.ok) {
        expect(v.error).toContain('no such file or directory');
        expectNoSecret(v.error);
      }
    }
  });
});

describe('the sandbox directory', () => {
  it('works from a private TMPDIR, and refuses a root the sandbox user cannot reach, by name', async () => {
    const priv = await mkdtemp(join(tmpdir(), 'pb-private-')); // 0700, as a worker's TMPDIR may be
    const before = { TMPDIR: process.env.TMPDIR, DIR: process.env.POOLBENCH_SANDBOX_DIR };
    try {
      process.env.TMPDIR = priv;
      const ok = await validateUserScript('export default function () {}');
      expect(ok).toMatchObject({ ok: true });
      process.env.POOLBENCH_SANDBOX_DIR = join(priv, 'sandbox');
      await expect(validateUserScript('export default function () {}')).rejects.toThrow(
        SandboxUnavailableError,
      );
      await expect(validateUserScript('export default function () {}')).rejects.toThrow(
        `${priv} does not let the sandbox's user through`,
      );
    } finally {
      for (const [k, v] of [
        ['TMPDIR', before.TMPDIR],
        ['POOLBENCH_SANDBOX_DIR', before.DIR],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      await rm(priv, { recursive: true, force: true });
    }
  });
});

describe('runK6 with a sandbox', () => {
  it('runs a script with its own scenarios and setup, streaming its seconds through fd 3', async () => {
    const before = target.requests.length;
    const seconds: K6Second[] = [];
    const r = await sandboxed(
      `import http from 'k6/http';
       import { sleep } from 'k6';
       const data = JSON.parse(open('./data.json'));
       export const options = {
         scenarios: {
           steady: { executor: 'constant-vus', vus: 2, duration: '2s' },
           burst: { executor: 'shared-iterations', vus: 1, iterations: 5, exec: 'burst' },
         },
       };
       export function setup() { return { url: __ENV.BASE + data.path }; }
       export default function (s) { http.get(s.url); sleep(0.05); }
       export function burst(s) { http.get(s.url + '?burst=1'); }`,
      {
        env: { BASE: `http://target.test:${target.port}` },
        files: { 'data.json': '{"path":"/hello"}' },
        onSecond: (s) => void seconds.push(s),
      },
    );
    expect(r.endReason).toBe('completed');
    expect(r.outputComplete).toBe(true);
    expect(seconds.length).toBeGreaterThanOrEqual(2);
    expect(r.summary.requests).toBe(seconds.reduce((n, s) => n + s.requests, 0));
    expect(r.summary.status['200']).toBe(r.summary.requests);
    const served = target.requests.slice(before);
    expect(served.length).toBe(r.summary.requests);
    expect(served.filter((p) => p === '/hello?burst=1')).toHaveLength(5);
    expect(r.sandbox).toMatchObject({ memoryLimitBytes: 256 * MiB, oomKilled: false, uid: 65534 });
  });

  it('gives the script no worker environment, only -e values and what k6 needs', async () => {
    const r = await sandboxed(
      `export const options = { iterations: 1, vus: 1 };
       export default function () { console.log('ENV ' + JSON.stringify(__ENV)); }`,
      { env: { GREETING: 'hello' } },
    );
    expect(r.endReason).toBe('completed');
    const line = everything(r)
      .split('\n')
      .find((l) => l.startsWith('ENV '));
    expect(JSON.parse(line!.slice(4))).toEqual({ GREETING: 'hello' });

    // With secrets k6 reads its process environment: still nothing of the worker's.
    const s = await sandboxed(
      `export const options = { iterations: 1, vus: 1 };
       export default function () { console.log('ENV ' + JSON.stringify(__ENV)); }`,
      { secretEnv: { TARGET_TOKEN: 'tok' } },
    );
    const env = JSON.parse(
      everything(s)
        .split('\n')
        .find((l) => l.startsWith('ENV '))!
        .slice(4),
    ) as Record<string, string>;
    expect(env.TARGET_TOKEN).toBe('tok');
    expect(Object.keys(env).sort()).toEqual(
      [
        'HOME',
        'HTTPS_PROXY',
        'HTTP_PROXY',
        'K6_AUTO_EXTENSION_RESOLUTION',
        'K6_BINARY_PROVISIONING',
        'NO_PROXY',
        'PATH',
        'PWD', // bwrap's, the sandbox's cwd
        'TARGET_TOKEN',
        'TMPDIR',
        'XDG_CONFIG_HOME',
        'http_proxy',
        'https_proxy',
        'no_proxy',
      ].sort(),
    );
    expectNoSecret(everything(s));
  });

  it('cannot read the worker env file, /proc or another run, when archived or when run', async () => {
    const paths = [
      secretFile,
      join(REPO, '.data/poolbench.env'),
      '/proc/1/environ',
      `/proc/${process.pid}/environ`,
      join(siblingRun, 'script.js'),
    ];
    // Errors are caught, so the archive step succeeds and the run's init code tries again
    // (k6 opens files in init code only; open() and k6/experimental/fs alike).
    const r = await sandboxed(
      `import fs from 'k6/experimental/fs';
       const paths = ${JSON.stringify(paths)};
       const results = [];
       for (const p of paths) {
         try { results.push('READ ' + open(p)); } catch (e) { results.push('refused ' + p); }
         try { await fs.open(p); results.push('READ fs ' + p); } catch (e) { results.push('fs refused ' + p); }
       }
       export const options = { iterations: 1, vus: 1 };
       export default function () { console.log(results.join('\\n')); }`,
    );
    expect(r.endReason).toBe('completed');
    const out = everything(r);
    for (const p of paths) {
      expect(out).toContain(`refused ${p}`);
      expect(out).toContain(`fs refused ${p}`);
    }
    expect(out).not.toContain('READ');
    expectNoSecret(out);
  });

  it('reaches nothing but the pinned target: not by IP, not by name, not by redirect', async () => {
    const before = target.requests.length;
    // another port on the target's own address is not the target either
    const neighbour = await countingServer('127.0.0.1');
    const r = await sandboxed(
      `import http from 'k6/http';
       // The script tries to undo every pin.
       export const options = {
         iterations: 1, vus: 1,
         hosts: { 'target.test:${target.port}': '127.0.0.2:${forbidden.port}', '*': '127.0.0.2' },
         maxRedirects: 10,
         blacklistIPs: [],
         blockHostnames: [],
       };
       const show = (what, res) => console.log(what + ' status=' + res.status + ' error=' + res.error);
       export default function () {
         show('pinned', http.get('http://target.test:${target.port}/pinned'));
         show('ip', http.get('http://127.0.0.2:${forbidden.port}/by-ip'));
         show('name', http.get('http://localhost:${forbidden.port}/by-name'));
         show('other-name', http.get('http://forbidden.test:${forbidden.port}/by-other-name'));
         show('other-port', http.get('http://127.0.0.1:${neighbour.port}/by-port'));
         show('other-port-name', http.get('http://target.test:${neighbour.port}/by-port-name'));
         show('redirect', http.get('http://target.test:${target.port}/redirect'));
         show('redirect-param', http.get('http://target.test:${target.port}/redirect', { redirects: 5 }));
       }`,
    );
    expect(r.endReason).toBe('completed');
    const out = everything(r);
    expect(out).toContain('pinned status=200');
    expect(out).toMatch(/ip status=0 error=.*blacklisted/);
    expect(out).toMatch(/name status=0 error=.*blacklisted/);
    expect(out).toMatch(/other-name status=0 error=.*blacklisted/);
    expect(out).toMatch(/other-port status=0 error=.*blacklisted/);
    expect(out).toMatch(/other-port-name status=0 error=.*blacklisted/);
    expect(out).toContain('redirect status=302');
    // a per-request `redirects` wins over maxRedirects in k6; the blacklist stops the hop
    expect(out).toMatch(/redirect-param status=0 error=.*blacklisted/);
    expect(target.requests.slice(before)).toEqual(['/pinned', '/redirect', '/redirect']);
    expect(forbidden.connections).toBe(0);
    expect(forbidden.requests).toEqual([]);
    expect(neighbour.connections).toBe(0);
    neighbour.server.close();
  });

  it('refuses a remote import before anything runs', async () => {
    const r = await sandboxed(
      `import x from 'https://example.com/x.js';\nexport default function () { x(); }`,
    );
    expect(r.endReason).toBe('k6_error');
    expect(r.pid).toBeUndefined();
    expect(r.stderrTail.join('\n')).toMatch(/remote modules are not allowed.*example\.com\/x\.js/);
  });

  it('kills a script that allocates beyond the memory limit, and says so', async () => {
    const r = await sandboxed(
      `export const options = { iterations: 1, vus: 1 };
       export default function () { const a = []; for (;;) a.push(new Array(1e6).fill(Math.random())); }`,
    );
    expect(r.endReason).toBe('k6_error');
    expect(r.sandbox).toMatchObject({ oomKilled: true, memoryLimitBytes: 256 * MiB });
    expect(r.sandbox!.memoryPeakBytes).toBeGreaterThan(250 * MiB);
    expect(r.stderrTail.join('\n')).toContain(
      "poolbench: the sandbox's memory limit (256 MiB) was reached: the kernel killed k6 (out of memory)",
    );
  });

  it('stops a script that loops forever at the wall clock', async () => {
    const started = Date.now();
    const r = await sandboxed(
      `export const options = { iterations: 1, vus: 1 };
       export default function () { while (true) {} }`,
      { timeoutMs: 3000, stopGraceMs: 2000 },
    );
    expect(r.endReason).toBe('timed_out');
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('holds a busy script to its CPU quota', async () => {
    const r = await sandboxed(
      `export const options = { iterations: 1, vus: 1 };
       export default function () { const end = Date.now() + 1500; while (Date.now() < end) {} }`,
      { sandbox: { memoryBytes: 256 * MiB, hosts: pins.hosts, cpuQuota: 0.2 } },
    );
    expect(r.endReason).toBe('completed');
    expect(r.sandbox).toMatchObject({ cpuQuota: 0.2 });
    expect(r.sandbox!.cpuThrottledPeriods).toBeGreaterThan(5);
  });

  it('stops gracefully on abort: SIGINT reaches k6 inside the sandbox', async () => {
    const ac = new AbortController();
    const r = await sandboxed(
      `import http from 'k6/http';
       import { sleep } from 'k6';
       export const options = { vus: 2, duration: '60s' };
       export default function () { http.get('http://target.test:${target.port}/long'); sleep(0.1); }`,
      { signal: ac.signal, onSecond: () => ac.abort() },
    );
    expect(r.endReason).toBe('aborted');
    expect([r.exitCode, r.outputComplete]).toEqual([105, true]); // k6's own graceful stop
  });

  it('refuses to run at all when the run cgroup cannot be created', async () => {
    const script = 'export default function () {}';
    await expect(
      runK6({
        script,
        blacklistIps: pins.blacklistIps,
        // a cgroup "parent" that is a file: mkdir fails as on a read-only cgroup mount
        sandbox: { memoryBytes: 256 * MiB, hosts: pins.hosts, cgroupParent: 'cgroup.procs' },
      }),
    ).rejects.toThrow(SandboxUnavailableError);
    await expect(validateUserScript(script, {}, { cgroupParent: 'cgroup.procs' })).rejects.toThrow(
      /never runs without memory and task limits/,
    );
  });
});

// Go's module loader fetches an https module missing from the archive with its default HTTP
// client, outside k6's hosts and blacklist; a script whose init code takes another path at run
// time than when it was archived gets there. These tests drive the pieces runK6 uses directly,
// so the archive is made with one -e value and run with another.
describe('remote modules at run time', () => {
  const script = (url: string) =>
    `if (__ENV.GO === '1') {
       try { require(${JSON.stringify(url)}); console.log('LOADED'); }
       catch (e) { console.log('remote module refused: ' + String(e).slice(0, 400)); }
     }
     export default function () {}`;

  async function runArchive(source: string): Promise<{ out: string; code: number | null }> {
    const dir = await mkdtemp(join(tmpdir(), 'poolbench-k6-'));
    try {
      const input = join(dir, 'in');
      const run = join(dir, 'run');
      await mkdir(input);
      await mkdir(run);
      await writeFile(join(input, 'script.js'), source);
      await handOverToSandbox(dir);
      const bin = resolveK6Bin();
      const archived = await archiveUserScript(bin, input, { env: { GO: '0' } });
      if (!archived.ok) throw new Error(archived.error);
      await writeFile(join(run, ARCHIVE_FILE), enforceNetwork(archived.archive, pins));
      await handOverToSandbox(run);
      const sb = await sandboxK6(
        {
          k6Bin: bin,
          inputDir: run,
          network: true,
          memoryBytes: 256 * MiB,
          env: { PATH: '/usr/local/bin', HOME: '/tmp', TMPDIR: '/tmp', ...proxyEnv(pins.hosts) },
        },
        [
          'run',
          '--address',
          '',
          '--quiet',
          '--no-color',
          '--log-format=raw',
          '--summary-mode=disabled',
          '--blacklist-ip',
          pins.blacklistIps.join(','),
          '-e',
          'GO=1',
          `${SANDBOX_INPUT}/${ARCHIVE_FILE}`,
        ],
      );
      try {
        return await new Promise((resolve) => {
          const child = spawn(sb.cmd, sb.args, { env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
          let out = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.stderr.on('data', (d: Buffer) => (out += d.toString()));
          child.once('close', (code) => resolve({ out, code }));
        });
      } finally {
        await sb.cleanup();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

  it.skipIf(!external)(
    'cannot fetch one from an address outside loopback (dead proxy)',
    async () => {
      const s = await countingServer(external!);
      try {
        const { out } = await runArchive(script(`https://${external}:${s.port}/x.js`));
        expect(out).toContain('remote module refused');
        expect(out).not.toContain('LOADED');
        expect(s.connections).toBe(0);
      } finally {
        s.server.close();
      }
    },
  );

  // Go never proxies loopback: the TLS handshake reaches a loopback port, but certificate
  // verification fails (no public CA certifies a loopback address), so no request is sent.
  // docs/security.md lists this as what is not covered.
  it('reaches a loopback port only as far as a TLS handshake that fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'poolbench-tls-'));
    let server: ReturnType<typeof createHttpsServer> | undefined;
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.2',
          '-addext',
          'subjectAltName=IP:127.0.0.2',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      const requests: string[] = [];
      server = createHttpsServer(
        { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
        (req, res) => {
          requests.push(req.url ?? '');
          res.end('export default 1;');
        },
      );
      await new Promise<void>((r) => server!.listen(0, '127.0.0.2', r));
      const port = (server.address() as { port: number }).port;
      const { out } = await runArchive(script(`https://127.0.0.2:${port}/x.js`));
      expect(out).toMatch(/remote module refused.*certificate/);
      expect(requests).toEqual([]);
    } finally {
      server?.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
