import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  writeFileSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

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

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd: string[], env: NodeJS.ProcessEnv) =>
  spawnSync(cmd[0]!, cmd.slice(1), { cwd: root, env, encoding: 'utf8', timeout: 60_000 });

describe('setup scripts fail clearly', () => {
  it('a port already taken: non-zero exit naming the port', async () => {
    const srv = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => srv.once('listening', r));
    const port = (srv.address() as { port: number }).port;
    const data = tempDir('pb-svc-');
    chmodSync(data, 0o777);
    const r = run(['infra/services.sh', 'start'], {
      ...process.env,
      PG_PORT: String(port),
      POOLBENCH_DATA_DIR: data,
    });
    srv.close();
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(new RegExp(`port ${port} is already in use by another process`));
  });

  it('not root and Postgres/Redis missing: says exactly what to install', () => {
    const data = tempDir('pb-svc-');
    chmodSync(data, 0o777);
    const env = {
      PATH: '/usr/bin:/bin',
      PG_BINDIR: '/nonexistent',
      POOLBENCH_DATA_DIR: data,
      HOME: data,
    };
    const asUser =
      process.getuid?.() === 0
        ? [
            'runuser',
            '-u',
            'nobody',
            '--',
            'env',
            ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
          ]
        : ['env'];
    const r = run(
      [...asUser, 'bash', 'infra/services.sh', 'start'],
      process.getuid?.() === 0 ? { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } : env,
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(
      /PostgreSQL server not found\. Install it: sudo apt-get install postgresql/,
    );
  });

  it('Go missing: setup stops before doing anything, naming what to install', () => {
    const r = run(['bash', 'scripts/setup.sh'], { PATH: '/usr/bin:/bin', HOME: process.env.HOME });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Go >= 1\.22 is required/);
  });
});

describe('the env file', () => {
  const loadEnv = (data: string) =>
    run(
      [
        'bash',
        '-c',
        '. scripts/lib.sh && load_env && printf "%s\\n" "$POOLBENCH_SECRET_KEY" "$BETTER_AUTH_URL"',
      ],
      { PATH: process.env.PATH, POOLBENCH_DATA_DIR: data },
    );

  it('is written with every setting and secrets of its own, readable by its owner only, and kept as it is on a second run', () => {
    const data = tempDir('pb-env-');
    const first = loadEnv(data);
    expect(first.status, first.stderr).toBe(0);
    const [key, url] = first.stdout.trim().split('\n');
    expect(Buffer.from(key!, 'base64')).toHaveLength(32);
    expect(url).toBe('http://localhost:3000');
    const file = join(data, 'poolbench.env');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    for (const k of [
      'DATABASE_URL',
      'REDIS_URL',
      'POOLBENCH_SECRET_KEY',
      'BETTER_AUTH_SECRET',
      'BETTER_AUTH_URL',
      'POOLBENCH_URL',
    ])
      expect(text).toMatch(new RegExp(`^${k}=.+$`, 'm'));
    expect(loadEnv(data).stdout).toBe(first.stdout);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('from an older version keeps its values and gains the settings it lacks', () => {
    const data = tempDir('pb-env-');
    const file = join(data, 'poolbench.env');
    writeFileSync(file, 'NEXT_TELEMETRY_DISABLED=1\nBETTER_AUTH_URL=https://pb.example.com\n', {
      mode: 0o644,
    });
    const r = loadEnv(data);
    expect(r.status, r.stderr).toBe(0);
    const [key, url] = r.stdout.trim().split('\n');
    expect(Buffer.from(key!, 'base64')).toHaveLength(32);
    expect(url).toBe('https://pb.example.com');
    expect(readFileSync(file, 'utf8').match(/^BETTER_AUTH_URL=/gm)).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('the suite summary', () => {
  const report = (root: string, path: string, xml: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), xml);
  };
  const summary = (root: string, ...args: string[]) =>
    run(['node', 'scripts/test-summary.mjs', root, ...args], { PATH: process.env.PATH });

  it('ends a failed suite with each failed test and the first lines of its message', () => {
    const dir = tempDir('pb-junit-');
    report(
      dir,
      'packages/k6/.cache/junit/integration.xml',
      `<testsuites><testsuite name="src/a.test.ts" tests="2" failures="1" errors="0" skipped="0">
        <testcase classname="src/a.test.ts" name="sandbox &gt; holds a busy script"><failure message="expected 3 to be greater than 5" type="AssertionError">
AssertionError: expected 3 to be greater than 5
 ❯ src/a.test.ts:458:45</failure></testcase>
        <testcase classname="src/a.test.ts" name="passes"></testcase>
      </testsuite></testsuites>`,
    );
    report(
      dir,
      'test-results/e2e.xml',
      `<testsuites><testsuite name="x" tests="1" failures="1"><testcase classname="e2e/flows.spec.ts" name="a flow"><failure message="timed out" type="FAILURE"><![CDATA[  at e2e/flows.spec.ts:33:5 &amp; more]]></failure></testcase></testsuite></testsuites>`,
    );
    const failures = summary(dir, '--failures');
    expect(failures.status).toBe(0);
    expect(failures.stdout.split('\n')).toEqual([
      'FAILED packages/k6/.cache/junit/integration.xml: src/a.test.ts › sandbox > holds a busy script',
      '    expected 3 to be greater than 5',
      '    AssertionError: expected 3 to be greater than 5',
      '     ❯ src/a.test.ts:458:45',
      'FAILED test-results/e2e.xml: e2e/flows.spec.ts › a flow',
      '    timed out',
      '      at e2e/flows.spec.ts:33:5 &amp; more',
      '',
    ]);
    const sum = summary(dir);
    expect(sum.status).toBe(1);
    expect(sum.stdout).toContain('==== 1 passed, 2 failed, 0 skipped ====');
  });

  it('says so when no report names a failed test', () => {
    const failures = summary(tempDir('pb-junit-'), '--failures');
    expect(failures.stdout.trim()).toBe(
      'no report names a failed test: the failure is in the log above',
    );
  });
});
