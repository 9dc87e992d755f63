import type { LabEnvironment } from '@poolbench/contracts';
import { runProcessEnv } from './target-env';
import { spawnManaged, type ManagedChild } from './child';
import { freePort } from './free-port';
import { createLimitedRole, type LimitedRole } from './limited-role';
import { createMariaDbRunUser } from './mariadb-user';
import type { ProcessRegistry } from './process-registry';
import { waitTcp } from './wait-tcp';

/** What the run's managed target is started with once its environment is up. */
export interface PreparedLabEnvironment {
  /** the lab database as the target must reach it: through the link proxy and/or as the limited role */
  databaseUrl: string;
  /** extra flags of the blob store (a handshake delay) */
  blobstoreArgs: string[];
  /** extra environment of each target instance (GOMAXPROCS) */
  targetEnv: Record<string, string>;
  /** MariaDB: the run's own user, whose sessions the DB-side chart counts */
  mariadbUser: string | null;
  stop(): Promise<void>;
}

/**
 * Builds what the seeds set up by hand around the app, for one run: a per-run role with a
 * connection limit, a link proxy adding RTT to Postgres, the blob store's per-connection delay and
 * the CPU limit. Helpers are started like the target (own process group, killed with the worker)
 * on free ports, and stop() tears everything down (nginx is started later, in front of the instances).
 */
export async function startLabEnvironment(opts: {
  bin: string;
  runId: string;
  databaseUrl: string;
  environment: LabEnvironment;
  database?: 'postgres' | 'mariadb';
  registry: ProcessRegistry;
  signal: AbortSignal;
  timeoutMs: number;
  /** CPUs of the target's side (the link proxy runs there), when the run isolates it */
  cpus?: string;
}): Promise<PreparedLabEnvironment> {
  const env = opts.environment;
  const helpers: ManagedChild[] = [];
  let role: Pick<LimitedRole, 'drop'> | null = null;
  let mariadbUser: string | null = null;
  const stop = async () => {
    await Promise.all(helpers.map((h) => h.stop()));
    await role?.drop();
  };
  try {
    let databaseUrl = opts.databaseUrl;
    if (opts.database === 'mariadb') {
      // Always a user of its own on MariaDB: it is how connections are attributed to the run.
      const u = await createMariaDbRunUser(opts.databaseUrl, opts.runId, env.roleConnectionLimit);
      role = u;
      mariadbUser = u.user;
      databaseUrl = u.databaseUrl;
    } else if (env.roleConnectionLimit !== undefined) {
      const r = await createLimitedRole(opts.databaseUrl, opts.runId, env.roleConnectionLimit);
      role = r;
      databaseUrl = r.databaseUrl;
    }
    if (env.dbLinkRttMs !== undefined && env.dbLinkRttMs > 0) {
      const u = new URL(databaseUrl);
      const port = await freePort();
      // Half the round trip each way, in µs so odd values stay exact.
      const proxy = spawnManaged(
        opts.bin,
        [
          'linkproxy',
          `--listen=127.0.0.1:${port}`,
          `--upstream=${u.hostname}:${u.port || (opts.database === 'mariadb' ? 3306 : 5432)}`,
          `--delay=${env.dbLinkRttMs * 500}us`,
        ],
        {
          registry: opts.registry,
          runId: opts.runId,
          kind: 'linkproxy',
          env: runProcessEnv({}),
          cpus: opts.cpus,
        },
      );
      helpers.push(proxy);
      await waitTcp(port, {
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        child: proxy,
        what: 'database link proxy',
      });
      u.hostname = '127.0.0.1';
      u.port = String(port);
      databaseUrl = u.toString();
    }
    const blobstoreArgs = env.blobstoreDelayMs
      ? [`--handshake-delay=${env.blobstoreDelayMs}ms`]
      : [];
    const targetEnv: Record<string, string> =
      env.cpuLimit !== undefined ? { GOMAXPROCS: String(env.cpuLimit) } : {};
    return { databaseUrl, blobstoreArgs, targetEnv, mariadbUser, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
