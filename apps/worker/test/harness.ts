import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb, scenarioRowData, seed, toJson, type Db, type RunStatus } from '@poolbench/db';
import { launchAndEnqueue } from '@poolbench/runs';
import { withTempDatabase } from '@poolbench/db/testing';
import { createRunQueue, producerConnection } from '@poolbench/queue';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { ProcessRegistry } from '../src/targets/process-registry';

const WORKER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * One isolated world per test file: its own migrated database, its own queue prefix and runtime
 * directory, on the real Postgres and Redis; workers run as real child processes so they can be
 * killed with -9.
 */
export async function createWorld(label: string, opts: { redisUrl?: string } = {}) {
  const tdb = await withTempDatabase(`worker_${label}`);
  const db = createDb({ url: tdb.url, max: 4 });
  const ids = await seed(db);
  const redisUrl = opts.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';
  const prefix = `pbt-${label}-${randomBytes(3).toString('hex')}`;
  const runtimeDir = mkdtempSync(join(tmpdir(), `pb-worker-${label}-`));
  const conn = (url: string) =>
    producerConnection(url, { enableOfflineQueue: true, maxRetriesPerRequest: null }).on(
      'error',
      () => {},
    );
  let redis: Redis = conn(redisUrl);
  let queue: Queue = createRunQueue(redis, prefix).on('error', () => {});
  const workers: ChildProcess[] = [];

  const world = {
    db,
    ids,
    prefix,
    runtimeDir,
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
          WORKER_HEALTH_PORT: '0',
          WORKER_ID: `test-${label}-${workers.length}`,
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
    async dispose() {
      for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      // Targets and k6 of workers a test killed with -9 are swept as the next worker would.
      new ProcessRegistry(runtimeDir).sweepOrphans();
      await queue.obliterate({ force: true }).catch(() => {});
      await queue.close().catch(() => {});
      redis.disconnect();
      await db.$disconnect();
      await tdb.dispose();
    },
  };
  return world;
}
export type World = Awaited<ReturnType<typeof createWorld>>;

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
    async close() {
      await this.cut();
    },
  };
}

/** Child processes (k6, targets) the worker recorded in a runtime dir; none while it does not exist yet. */
export function recordedChildren(dir: string): { pid: number; kind: string; runId: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) =>
        JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
          pid: number;
          kind: string;
          runId: string;
        },
    );
}
