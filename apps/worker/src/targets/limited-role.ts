import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import { RunError } from '../runs/run-error';
import { isAlive } from './process-registry';

export const LIMITED_ROLE_PREFIX = 'pb_limited_';
const PREFIX = LIMITED_ROLE_PREFIX;

export interface LimitedRole {
  /** the lab database URL with this role's credentials */
  databaseUrl: string;
  name: string;
  drop(): Promise<void>;
}

async function withClient<T>(databaseUrl: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'poolbench-worker-roles',
  });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end().catch(() => {});
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A login role for one run with `CONNECTION LIMIT n`, so a target can meet "too many clients"
 * (SQLSTATE 53300) without lowering the shared server's max_connections. It reads and writes the
 * lab data like the owner would. Its comment names the worker (host:pid) that made it, so roles
 * left behind by a worker killed with -9 are dropped by the next one on that host.
 */
export async function createLimitedRole(
  adminUrl: string,
  runId: string,
  limit: number,
): Promise<LimitedRole> {
  const name = `${PREFIX}${runId
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(-20)}`;
  const password = randomBytes(18).toString('hex');
  try {
    await withClient(adminUrl, async (c) => {
      await sweepOrphanRoles(c);
      await c.query(`DROP ROLE IF EXISTS ${ident(name)}`);
      await c.query(
        `CREATE ROLE ${ident(name)} LOGIN PASSWORD '${password}' CONNECTION LIMIT ${Math.trunc(limit)}`,
      );
      await c.query(`GRANT pg_read_all_data, pg_write_all_data TO ${ident(name)}`);
      await c.query(
        `COMMENT ON ROLE ${ident(name)} IS '${hostname().replace(/'/g, '')}:${process.pid}'`,
      );
    });
  } catch (err) {
    throw new RunError(
      'target_setup_failed',
      `could not create the run's database role with CONNECTION LIMIT ${limit}: ${(err as Error).message}`,
    );
  }
  const u = new URL(adminUrl);
  u.username = name;
  u.password = password;
  return {
    databaseUrl: u.toString(),
    name,
    drop: () => withClient(adminUrl, (c) => dropLimitedRole(c, name)).catch(() => {}),
  };
}

export async function dropLimitedRole(c: pg.Client, name: string): Promise<void> {
  // A role with sessions cannot be dropped; the target is stopped by now, stragglers are ended.
  await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [
    name,
  ]);
  await c.query(`DROP ROLE IF EXISTS ${ident(name)}`);
}

async function sweepOrphanRoles(c: pg.Client): Promise<void> {
  const { rows } = await c.query<{ rolname: string; owner: string | null }>(
    `SELECT r.rolname, shobj_description(r.oid, 'pg_authid') AS owner FROM pg_roles r WHERE r.rolname LIKE '${PREFIX}%'`,
  );
  for (const r of rows) {
    const [host, pid] = (r.owner ?? '').split(':');
    if (host === hostname() && pid && Number(pid) !== process.pid && !isAlive(Number(pid)))
      await dropLimitedRole(c, r.rolname).catch(() => {});
  }
}
