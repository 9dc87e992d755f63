import { spawnSync } from 'node:child_process';
import { mkdtempSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd: string[], env: NodeJS.ProcessEnv) => spawnSync(cmd[0]!, cmd.slice(1), { cwd: root, env, encoding: 'utf8', timeout: 60_000 });

describe('setup scripts fail clearly', () => {
  it('a port already taken: non-zero exit naming the port', async () => {
    const srv = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => srv.once('listening', r));
    const port = (srv.address() as { port: number }).port;
    const data = mkdtempSync(join(tmpdir(), 'pb-svc-'));
    chmodSync(data, 0o777);
    const r = run(['infra/services.sh', 'start'], { ...process.env, PG_PORT: String(port), POOLBENCH_DATA_DIR: data });
    srv.close();
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(new RegExp(`port ${port} is already in use by another process`));
  });

  it('not root and Postgres/Redis missing: says exactly what to install', () => {
    const data = mkdtempSync(join(tmpdir(), 'pb-svc-'));
    chmodSync(data, 0o777);
    const env = { PATH: '/usr/bin:/bin', PG_BINDIR: '/nonexistent', POOLBENCH_DATA_DIR: data, HOME: data };
    const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'nobody', '--', 'env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`)] : ['env'];
    const r = run([...asUser, 'bash', 'infra/services.sh', 'start'], process.getuid?.() === 0 ? { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } : env);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/PostgreSQL server not found\. Install it: sudo apt-get install postgresql/);
  });

  it('Go missing: setup stops before doing anything, naming what to install', () => {
    const r = run(['bash', 'scripts/setup.sh'], { PATH: '/usr/bin:/bin', HOME: process.env.HOME });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Go >= 1\.22 is required/);
  });
});
