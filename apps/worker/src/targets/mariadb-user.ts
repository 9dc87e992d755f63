import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import mysql from 'mysql2/promise';
import { RunError } from '../runs/run-error';
import { isAlive } from './process-registry';

export interface MariaDbRunUser {
  user: string;
  /** the lab database as this user (same host, port and database as the admin URL) */
  databaseUrl: string;
  drop(): Promise<void>;
}

/** mysql2 options from a mysql:// (or mariadb://) URL. */
export function mysqlOptions(url: string): mysql.ConnectionOptions {
  const u = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.replace(/^\//, '') || undefined,
    connectTimeout: 5000,
  };
}

/** `pb_<host>_<worker pid>_<run>`: MariaDB keeps no comment on a user, so the name says who made it. */
export const hostTag = () => createHash('sha1').update(hostname()).digest('hex').slice(0, 6);
export const runUserName = (runId: string, pid = process.pid) =>
  `pb_${hostTag()}_${pid}_${runId
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(-10)}`;

/** A run user's name; groups: host tag, worker pid, run id suffix. */
export const RUN_USER_PATTERN = /^pb_([0-9a-f]{6})_(\d+)_([a-z0-9]+)$/;

export async function dropMariaDbUser(c: mysql.Connection, user: string): Promise<void> {
  // Sessions still open (a killed instance's) go first, or DROP USER leaves them running.
  const [rows] = await c.query<mysql.RowDataPacket[]>(
    'SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?',
    [user],
  );
  for (const r of rows) await c.query(`KILL ${Number(r.ID)}`).catch(() => {});
  await c.query('DROP USER IF EXISTS ?@?', [user, '127.0.0.1']);
}

/** Users left by a worker of this host that died (kill -9) before it could drop them. */
export async function sweepOrphanUsers(c: mysql.Connection): Promise<string[]> {
  const [rows] = await c.query<mysql.RowDataPacket[]>(
    'SELECT User FROM mysql.user WHERE User LIKE ?',
    [`pb\\_${hostTag()}\\_%`],
  );
  const dropped: string[] = [];
  for (const r of rows) {
    const pid = Number(String(r.User).split('_')[2]);
    if (pid && pid !== process.pid && !isAlive(pid)) {
      await dropMariaDbUser(c, String(r.User)).catch(() => {});
      dropped.push(String(r.User));
    }
  }
  return dropped;
}

/**
 * A MariaDB user for one run: MariaDB has no application_name, so connections are told apart by
 * user (the DB-side connection chart counts this user's sessions), and a role connection limit is
 * the user's MAX_USER_CONNECTIONS (refusals: error 1203). Dropped with the run.
 */
export async function createMariaDbRunUser(
  adminUrl: string,
  runId: string,
  connectionLimit?: number,
): Promise<MariaDbRunUser> {
  const opts = mysqlOptions(adminUrl);
  const user = runUserName(runId);
  const password = randomBytes(18).toString('base64url');
  const db = opts.database ?? 'poolbench_lab';
  try {
    const conn = await mysql.createConnection(opts);
    try {
      await sweepOrphanUsers(conn);
      await conn.query('DROP USER IF EXISTS ?@?', [user, '127.0.0.1']);
      await conn.query(
        `CREATE USER ?@? IDENTIFIED BY ?${connectionLimit !== undefined ? ` WITH MAX_USER_CONNECTIONS ${Math.trunc(connectionLimit)}` : ''}`,
        [user, '127.0.0.1', password],
      );
      // the lab data only: read and write, nothing else on the server
      await conn.query(
        `GRANT SELECT, INSERT, UPDATE, DELETE ON \`${db.replace(/`/g, '')}\`.* TO ?@?`,
        [user, '127.0.0.1'],
      );
    } finally {
      await conn.end().catch(() => {});
    }
  } catch (err) {
    throw new RunError(
      'target_setup_failed',
      `could not create the run's MariaDB user: ${(err as Error).message}`,
    );
  }
  const u = new URL(adminUrl.replace(/^mariadb:/, 'mysql:'));
  u.username = user;
  u.password = password;
  return {
    user,
    databaseUrl: u.toString(),
    drop: async () => {
      const c = await mysql.createConnection(opts).catch(() => null);
      if (!c) return;
      try {
        await dropMariaDbUser(c, user);
      } finally {
        await c.end().catch(() => {});
      }
    },
  };
}
