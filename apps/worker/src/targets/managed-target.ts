import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RuntimeLauncher } from './runtimes';
import { spawnManaged, type ManagedChild } from './child';
import { runProcessEnv } from './target-env';
import { freePort } from './free-port';
import type { ProcessRegistry } from './process-registry';
import { RunError } from '../runs/run-error';
import { waitReady } from './wait-ready';
import { startNginx } from './nginx-balancer';
import { LAB_SETUP } from '@poolbench/db';

const pExecFile = promisify(execFile);

export interface LabSetup {
  rows: number;
  fields: number;
  roles: number;
  permissions: number;
  shards: number;
}

export interface ManagedInstance {
  index: number;
  port: number;
  baseUrl: string;
  child: ManagedChild;
  /** application_name the instance's connections carry, for pg_stat_activity */
  applicationName: string;
}

export interface StartedManagedTarget {
  instances: ManagedInstance[];
  /** the Go target's blob store (null for runtimes without /upload) */
  blobstore: ManagedChild | null;
  /** where load goes: the instances (k6 round robin), or the one nginx in front of them */
  loadUrls: string[];
  /** the nginx in front (balancing "nginx"), with its access log */
  balancer: { baseUrl: string; accessLog: string } | null;
  stop(): Promise<void>;
}

/** Longest database name Postgres keeps whole (MariaDB allows 64). */
const MAX_DATABASE_NAME = 63;

/**
 * The lab database a data-set shape lives in: the URL's own database for the default shape
 * (LAB_SETUP), `<name>_<rows>x<fields>_r<roles>_p<permissions>[_s<shards>]` for any other, on the
 * same server. `lab-target setup` rebuilds a database that holds another shape, so shapes sharing
 * one database would rebuild the data under each other's runs, on one worker or across a fleet;
 * one database per shape means a shape is built once and never changed. MariaDB has no shard
 * schemas, so `shards` does not name a MariaDB database. `lab-target setup` creates the database
 * when it is missing (the lab server's user needs the right to create databases).
 */
export function labDataUrl(baseUrl: string, setup: LabSetup, database: 'postgres' | 'mariadb') {
  const withShards = database === 'postgres';
  const same = (Object.keys(LAB_SETUP) as Array<keyof LabSetup>).every(
    (k) => (k === 'shards' && !withShards) || setup[k] === LAB_SETUP[k],
  );
  if (same) return baseUrl;
  const url = new URL(baseUrl);
  const suffix =
    `_${setup.rows}x${setup.fields}_r${setup.roles}_p${setup.permissions}` +
    (withShards ? `_s${setup.shards}` : '');
  const base = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'poolbench_lab';
  url.pathname = `/${encodeURIComponent(base.slice(0, MAX_DATABASE_NAME - suffix.length) + suffix)}`;
  return url.toString();
}

/**
 * Makes sure the lab data exists (idempotent and quick when it does). Runs once per database and
 * shape per worker process and hour, not per run: with one database per shape (labDataUrl) nothing
 * else changes a database this process has set up, and housekeeping drops a shape only after days
 * without a run of it (lab-shapes.ts), so an hour-old check cannot be stale.
 */
const PREPARED_FOR_MS = 3_600_000;
const preparedShapes = new Map<string, number>();
export function forgetLabData(databaseUrl: string, setup: LabSetup) {
  preparedShapes.delete(JSON.stringify([databaseUrl, setup]));
}
export async function ensureLabData(
  bin: string,
  databaseUrl: string,
  setup: LabSetup,
  signal?: AbortSignal,
): Promise<boolean> {
  const key = JSON.stringify([databaseUrl, setup]);
  if ((preparedShapes.get(key) ?? 0) > Date.now() - PREPARED_FOR_MS) return false;
  try {
    await pExecFile(
      bin,
      [
        'setup',
        `--rows=${setup.rows}`,
        `--fields=${setup.fields}`,
        `--roles=${setup.roles}`,
        `--permissions=${setup.permissions}`,
        `--shards=${setup.shards}`,
      ],
      // the URL (with its password) by environment, never in argv
      { signal, timeout: 300_000, env: runProcessEnv({ LAB_DATABASE_URL: databaseUrl }) },
    );
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new RunError(
      'target_setup_failed',
      `lab data set-up failed: ${(e.stderr ?? e.message).trim().split('\n').slice(-3).join(' ')}`,
    );
  }
  preparedShapes.set(key, Date.now());
  return true;
}

/**
 * Starts N lab-target instances with the run's pool config (a real cold start each run), plus a
 * TLS blob store for POST /upload, and waits until every instance says ready.
 */
export async function startManagedTarget(opts: {
  /** the Go lab target (its blob store) */
  bin: string;
  /** how each instance is started (runtime) and the pool flags it honours */
  launcher: RuntimeLauncher;
  poolArgs: string[];
  runId: string;
  databaseUrl: string;
  instanceCount: number;
  registry: ProcessRegistry;
  readyTimeoutMs: number;
  signal: AbortSignal;
  /** address the instances listen on: loopback, or WORKER_ADVERTISE_HOST when other workers' k6 must reach them */
  listenHost?: string;
  /** extra blob store flags and instance environment (see lab-environment.ts) */
  blobstoreArgs?: string[];
  targetEnv?: Record<string, string>;
  balancing?: 'k6-round-robin' | 'nginx';
  nginxBin?: string;
  /** CPUs for every process started here (instances, blob store, nginx) when the run isolates them */
  cpus?: string;
}): Promise<StartedManagedTarget> {
  const host = opts.listenHost ?? '127.0.0.1';
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  const started: ManagedChild[] = [];
  const extraStops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    // the balancer first, so nothing reaches instances that are going away
    await Promise.all(extraStops.map((f) => f()));
    await Promise.all(started.map((c) => c.stop()));
  };
  try {
    let blobstore: ManagedChild | null = null;
    const upstreamArgs: string[] = [];
    if (opts.launcher.withBlobstore) {
      const blobPort = await freePort();
      blobstore = spawnManaged(
        opts.bin,
        [
          'blobstore',
          `--listen=127.0.0.1:${blobPort}`,
          '--tls-self-signed',
          ...(opts.blobstoreArgs ?? []),
        ],
        {
          registry: opts.registry,
          runId: opts.runId,
          kind: 'blobstore',
          env: runProcessEnv({}),
          cpus: opts.cpus,
        },
      );
      started.push(blobstore);
      upstreamArgs.push(`--upstream-url=https://127.0.0.1:${blobPort}`, '--upstream-insecure');
    }
    const instances: ManagedInstance[] = [];
    for (let index = 0; index < opts.instanceCount; index++) {
      const port = await freePort();
      const applicationName = `pb-${opts.runId.slice(-10)}-${index}`;
      const child = spawnManaged(
        opts.launcher.cmd,
        [
          ...opts.launcher.prefix,
          ...opts.poolArgs,
          `--listen=${hostInUrl}:${port}`,
          ...upstreamArgs,
          `--instance-id=${index}`,
          `--application-name=${applicationName}`,
        ],
        {
          registry: opts.registry,
          runId: opts.runId,
          kind: 'lab-target',
          // the run's database URL (its own user and password) by environment, never in argv
          env: runProcessEnv({ ...opts.targetEnv, LAB_DATABASE_URL: opts.databaseUrl }),
          cpus: opts.cpus,
        },
      );
      started.push(child);
      instances.push({
        index,
        port,
        baseUrl: `http://${hostInUrl}:${port}`,
        child,
        applicationName,
      });
    }
    await Promise.all(
      instances.map((i) =>
        waitReady(`${i.baseUrl}/ready`, {
          timeoutMs: opts.readyTimeoutMs,
          signal: opts.signal,
          child: i.child,
          what: `lab target instance ${i.index}`,
        }),
      ),
    );
    let loadUrls = instances.map((i) => i.baseUrl);
    let balancer: StartedManagedTarget['balancer'] = null;
    if (opts.balancing === 'nginx') {
      const nginx = await startNginx({
        bin: opts.nginxBin,
        runId: opts.runId,
        upstreamPorts: instances.map((i) => i.port),
        registry: opts.registry,
        signal: opts.signal,
        timeoutMs: opts.readyTimeoutMs,
        host: hostInUrl,
        cpus: opts.cpus,
      });
      extraStops.push(nginx.stop);
      loadUrls = [nginx.baseUrl];
      balancer = { baseUrl: nginx.baseUrl, accessLog: nginx.accessLog };
    }
    return { instances, blobstore, loadUrls, balancer, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
