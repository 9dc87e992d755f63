import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, scenarioRowData, toJson, type Db, type RunStatus } from '@poolbench/db';
import { seed } from '@poolbench/runs';
import { launchAndEnqueue } from '@poolbench/runs';
import { withTempDatabase } from '@poolbench/db/testing';
import { databaseUrl } from '@poolbench/db';
import pg from 'pg';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { ProcessRegistry } from '../src/targets/process-registry';

/** What the test installation opened to teams (the worker's tests run their stub services there). */
export const LOOPBACK_OPENED = ['127.0.0.0/8', '::1/128'];

const WORKER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * One isolated world per test file: its own migrated database, its own queue prefix and runtime
 * directory, on the real Postgres and Redis; workers run as real child processes so they can be
 * killed with -9.
 */
export async function createWorld(label: string, opts: { redisUrl?: string } = {}) {
  const tdb = await withTempDatabase(`worker_${label}`);
  const db = createDb({ url: tdb.url, max: 4 });
  let ids: Awaited<ReturnType<typeof seed>>;
  try {
    ids = await seed(db);
    // The tests' stub targets and webhook receivers listen on loopback: this installation's admin
    // opened loopback to teams (docs/security.md, "Two levels of trust"), as a self-hosted install
    // does in Settings → Installation. Each test still allowlists its addresses for its team.
    await db.installationRange.createMany({
      data: LOOPBACK_OPENED.map((cidr) => ({ cidr, createdById: ids.userId })),
      skipDuplicates: true,
    });
  } catch (err) {
    await settle('create world', [
      ['db disconnect', () => db.$disconnect()],
      ['drop database', () => dropDatabase(tdb)],
    ]).catch(() => {});
    throw err;
  }
  const redisUrl = opts.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';
  const prefix = `pbt-${label}-${randomBytes(3).toString('hex')}`;
  const runtimeDir = mkdtempSync(join(tmpdir(), `pb-worker-${label}-`));
  // the workers' TMPDIR: what a killed worker leaves there (k6 scripts, nginx and PHP-FPM
  // folders) goes with the world
  const tmpDir = join(runtimeDir, 'tmp');
  mkdirSync(tmpDir);
  const conn = (url: string) =>
    producerConnection(url, { enableOfflineQueue: true, maxRetriesPerRequest: null }).on(
      'error',
      () => {},
    );
  let redis: Redis = conn(redisUrl);
  let queue: Queue = createRunQueue(redis, prefix).on('error', () => {});
  const workers: ChildProcess[] = [];
  let started = 0; // worker ids stay unique within a world, also after killWorkers()

  const world = {
    db,
    ids,
    prefix,
    runtimeDir,
    tmpDir,
    get queue() {
      return queue;
    },
    get redis() {
      return redis;
    },
    logs: [] as string[],
    /**
     * `hostsFile`: the worker sees this file as /etc/hosts (its own mount namespace, needs root),
     * so a test controls what names resolve to, for the worker and the k6 it starts.
     */
    startWorker(
      extraEnv: Record<string, string> = {},
      opts: { hostsFile?: string; netns?: string } = {},
    ): ChildProcess {
      // `netns`: the worker runs in that network namespace (a simulated host; see netns.ts).
      const cmd = [
        ...(opts.netns ? ['ip', 'netns', 'exec', opts.netns] : []),
        process.execPath,
        '--import',
        'tsx',
        'src/index.ts',
      ];
      const [bin, ...args] = opts.hostsFile
        ? [
            'unshare',
            '-m',
            'sh',
            '-c',
            'mount --bind "$0" /etc/hosts && exec "$@"',
            opts.hostsFile,
            ...cmd,
          ]
        : cmd;
      const child = spawn(bin!, args, {
        cwd: WORKER_DIR,
        env: {
          ...process.env,
          DATABASE_URL: tdb.url,
          REDIS_URL: redisUrl,
          QUEUE_PREFIX: prefix,
          POOLBENCH_RUNTIME_DIR: runtimeDir,
          TMPDIR: tmpDir,
          WORKER_HEALTH_PORT: '0',
          WORKER_ID: `test-${label}-${started++}`,
          RUN_HEARTBEAT_MS: '500',
          RUN_STALE_AFTER_MS: '6000',
          SWEEP_INTERVAL_MS: '1000',
          WORKER_SHUTDOWN_GRACE_MS: '3000',
          LOG_LEVEL: 'info',
          ...extraEnv,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const keep = (b: Buffer) => world.logs.push(...b.toString().split('\n').filter(Boolean));
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      workers.push(child);
      return child;
    },
    /** A scenario of the given template params on GET /health, saved for the demo team. */
    async scenario(name: string, scenario: { template: string } & Record<string, unknown>) {
      return db.scenario.create({
        data: { teamId: ids.teamId, name, ...scenarioRowData(scenario) },
      });
    },
    async poolConfig(
      name: string,
      strategy: string,
      params: Record<string, number> = {},
      instanceCount = 1,
    ) {
      return db.poolConfig.create({
        data: {
          teamId: ids.teamId,
          targetId: ids.targetId,
          name,
          strategy,
          params: toJson.poolParams(params),
          instanceCount,
        },
      });
    },
    async launch(
      poolConfigIds: string[],
      scenarioIds: string[],
      repeats = 1,
      targetId = ids.targetId,
    ) {
      return launchAndEnqueue(
        { db, queue },
        {
          teamId: ids.teamId,
          targetId,
          poolConfigIds,
          scenarioIds,
          repeats,
          name: `${label} experiment`,
        },
      );
    },
    async waitForStatus(runId: string, statuses: RunStatus[], timeoutMs = 90_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
        if (statuses.includes(run.status)) return run;
        if (Date.now() > until)
          throw new Error(
            `run ${runId} is ${run.status}, expected ${statuses.join('|')} within ${timeoutMs} ms\n${world.logs.slice(-30).join('\n')}`,
          );
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    reconnectRedis(url = redisUrl) {
      redis.disconnect();
      redis = conn(url);
      queue = createRunQueue(redis, prefix).on('error', () => {});
    },
    /**
     * Kills every worker this world started (SIGKILL, then waits for each to exit, bounded) and
     * the k6 and targets they left, as the next worker on the host would. An afterEach calls
     * it, so a test that failed halfway leaves nothing running for the next one.
     */
    async killWorkers() {
      const errors: string[] = [];
      await Promise.all(
        workers
          .splice(0)
          .map((c) =>
            stopChild(c, 'SIGKILL', 10_000).catch((e: Error) => void errors.push(e.message)),
          ),
      );
      new ProcessRegistry(runtimeDir).sweepOrphans();
      if (errors.length) throw new Error(errors.join('\n'));
    },
    /**
     * Every step runs and is bounded, whatever an earlier one did; the database is dropped with
     * FORCE even if disconnecting hung. Throws afterwards if a step failed, naming it.
     */
    async dispose() {
      await settle(`world ${label}`, [
        ['kill workers', () => world.killWorkers()],
        ['obliterate queue', () => queue.obliterate({ force: true })],
        ['delete the prefix keys', () => deleteKeys(redis, `${prefix}:*`)],
        ['close queue', () => queue.close()],
        ['disconnect redis', async () => redis.disconnect()],
        ['disconnect db', () => db.$disconnect()],
        ['drop database', () => dropDatabase(tdb)],
        ['remove runtime dir', async () => rmSync(runtimeDir, { recursive: true, force: true })],
      ]);
    },
  };
  return world;
}
export type World = Awaited<ReturnType<typeof createWorld>>;

const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

/** Rejects with `what` if `p` has not settled within `ms`. */
export async function within<T>(what: string, ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs every teardown step in order, each bounded (15 s unless given), whether or not an
 * earlier one failed or hung; throws one error naming every step that failed.
 */
export async function settle(
  what: string,
  steps: Array<[string, () => Promise<unknown>, number?]>,
): Promise<void> {
  const failed: string[] = [];
  for (const [name, step, ms = 15_000] of steps) {
    try {
      await within(name, ms, Promise.resolve().then(step));
    } catch (err) {
      failed.push(`${name}: ${(err as Error).message}`);
    }
  }
  if (failed.length) throw new Error(`${what} teardown failed:\n${failed.join('\n')}`);
}

/**
 * Sends `signal` to a child and waits for its exit; if it has not exited within `ms`, SIGKILL
 * and wait again (bounded too). Resolves at once for a child that already exited.
 */
export async function stopChild(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  ms = 15_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => {
    if (!alive(child)) r({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, sig) => r({ code, signal: sig }));
  });
  if (!alive(child)) return exited;
  child.kill(signal);
  try {
    return await within(`pid ${child.pid} exit after ${signal}`, ms, exited);
  } catch (err) {
    if (signal === 'SIGKILL') throw err;
    child.kill('SIGKILL');
    await within(`pid ${child.pid} exit after SIGKILL`, 5000, exited);
    throw err;
  }
}

/** Deletes every key matching `pattern` (the schedule queue, live events, anything under the prefix). */
async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/**
 * Drops a test database: the helper's own dispose first, and if that failed or hung, a
 * DROP … WITH (FORCE) on a fresh admin connection, so no poolbench_test_* database is left.
 */
async function dropDatabase(tdb: { url: string; dispose: () => Promise<void> }): Promise<void> {
  try {
    await within('temp database dispose', 10_000, tdb.dispose());
    return;
  } catch {
    // dropped below
  }
  const name = new URL(tdb.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: databaseUrl(), connectionTimeoutMillis: 5000 });
  try {
    await within('connect for drop', 6000, admin.connect());
    await within(
      'drop database',
      10_000,
      admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
  } finally {
    await within('admin end', 3000, admin.end()).catch(() => {});
  }
}

export function sustained(vus: number, holdMs: number) {
  return {
    template: 'sustained',
    params: { vus, durationMs: holdMs },
    requests: [{ path: '/health' }],
    readyPath: '/ready',
  };
}

/** Polls `fn` every 200 ms until it returns something truthy, and returns that. */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as T;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function pidsAlive(pids: number[]): number[] {
  return pids.filter((p) => {
    try {
      process.kill(p, 0);
      return true;
    } catch {
      return false;
    }
  });
}

export type { Db };

/**
 * A TCP proxy the test controls, between one process and a real service: cut() drops every
 * connection and refuses new ones (the service is "down" for that process only), restore()
 * accepts again on the same port.
 */
export async function tcpProxy(targetPort: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      const closed = new Promise<void>((r) => (server ? server.close(() => r()) : r()));
      server = null;
      for (const s of sockets) s.destroy(); // close() waits for open connections: end them first
      await closed;
    },
    restore: listen,
    /** cut(), bounded: a close that waits on a connection never holds a teardown up. */
    async close() {
      await within('tcp proxy close', 5000, this.cut());
    },
  };
}

/**
 * Child processes (k6, targets) the worker recorded in a runtime dir; none while it does not exist
 * yet. The worker removes a record when its child ends, so a record listed can be gone by the time
 * it is read: that child is no longer recorded, and is left out. (Records are written whole, by a
 * rename, so one that is there parses.)
 */
export function recordedChildren(dir: string): { pid: number; kind: string; runId: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      let text: string;
      try {
        text = readFileSync(join(dir, f), 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw e;
      }
      return [JSON.parse(text) as { pid: number; kind: string; runId: string }];
    });
}
