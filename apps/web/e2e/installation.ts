import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { withTempDatabase } from '@poolbench/db/testing';

const WEB = join(import.meta.dirname, '..');
export const REPO = join(WEB, '../..');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export interface Installation {
  /** The web app's address. */
  base: string;
  /** What a process of this installation (the CLI, first-demo) needs in its environment. */
  env: Record<string, string>;
  /** Stops its processes and removes its database and Redis keys; safe to call twice. */
  stop: () => Promise<void>;
}

/**
 * A PoolBench installation of a test's own, for what the shared stack cannot give: a never-used
 * installation, or one no worker serves. A database cloned from the migrated template (seeded as
 * the first `make up` seeds it, when asked), a Redis database of its own (emptied before and
 * after; `redisDb` must be one no other spec uses), the stack's web build on a free port and, when
 * asked, a real worker. The worker runs in a process group of its own with its own runtime
 * directory, so stopping it (TERM, then KILL of the group) leaves no lab target or k6 behind.
 */
export async function startInstallation(opts: {
  label: string;
  redisDb: number;
  seed?: boolean;
  worker?: boolean;
}): Promise<Installation> {
  const db = await withTempDatabase(opts.label);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
  redisUrl.pathname = `/${opts.redisDb}`;
  const redis = new Redis(redisUrl.toString(), { maxRetriesPerRequest: 1, lazyConnect: true });
  const runtimeDir = mkdtempSync(join(tmpdir(), `pb-${opts.label}-`));
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl.toString(),
    POOLBENCH_URL: base,
    BETTER_AUTH_URL: base,
  };
  const children: ChildProcess[] = [];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(children.map((c) => stopGroup(c, 45_000)));
    await emptyDb(redis).catch(() => null);
    redis.disconnect();
    rmSync(runtimeDir, { recursive: true, force: true });
    await db.dispose();
  };
  try {
    await redis.connect();
    await emptyDb(redis);
    if (opts.seed) await runToEnd('seed', ['packages/runs/src/cli/seed.ts'], env);
    children.push(
      spawn('node', ['server.mjs'], {
        cwd: WEB,
        env: {
          ...process.env,
          ...env,
          NODE_ENV: 'production',
          PORT: String(port),
          POOLBENCH_WEB_PROCESSES: '1',
          // the worker's sweeper serves an installation with a worker; none is needed without
          WEB_SWEEPER: '0',
        },
        stdio: 'ignore',
        detached: true,
      }),
    );
    if (opts.worker)
      children.push(
        spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/index.ts'], {
          cwd: REPO,
          env: {
            ...process.env,
            ...env,
            WORKER_ID: `e2e-${opts.label}-${randomBytes(3).toString('hex')}`,
            WORKER_HEALTH_PORT: '0',
            POOLBENCH_RUNTIME_DIR: runtimeDir,
          },
          stdio: 'ignore',
          detached: true,
        }),
      );
    await untilServing(base, opts.worker === true);
    return { base, env, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Until the web app answers /api/health and, when `withWorker`, counts a worker online. */
async function untilServing(base: string, withWorker: boolean): Promise<void> {
  const end = Date.now() + 120_000;
  let last = 'no answer';
  while (Date.now() < end) {
    try {
      const res = await fetch(`${base}/api/health`);
      const body = (await res.json()) as { worker?: { ok?: boolean } };
      last = JSON.stringify(body);
      if (!withWorker || body.worker?.ok) return;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the installation at ${base} did not come up in 120 s: ${last}`);
}

/** Deletes every key of the connection's Redis database (FLUSHDB is refused to the app's user). */
async function emptyDb(redis: Redis): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 500);
    if (keys.length) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/** TERM to the process group, KILL to it after `graceMs`; resolves once the leader has exited. */
async function stopGroup(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // the group is gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  signal('SIGKILL'); // what the leader left in its group
}

function runToEnd(what: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${what} exited ${code}: ${out}`)),
    );
  });
}
