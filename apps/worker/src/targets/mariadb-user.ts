import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';

export interface MariaDbRunUser {
  user: string;
  /** the lab database as this user (same host, port and database as the admin URL) */
  databaseUrl: string;
  drop(): Promise<void>;
}

/** mysql2 options from a mysql:// (or mariadb://) URL. */
export function mysqlOptions(url: string): mysql.ConnectionOptions {
  const u = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return { host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database: u.pathname.replace(/^\//, '') || undefined, connectTimeout: 5000 };
}

export const runUserName = (runId: string) => `pb_${runId.slice(-10).toLowerCase()}`;

/**
 * A MariaDB user for one run: MariaDB has no application_name, so connections are told apart by
 * user (the DB-side connection chart counts this user's sessions), and a role connection limit is
 * the user's MAX_USER_CONNECTIONS (refusals: error 1203). Dropped with the run.
 */
export async function createMariaDbRunUser(adminUrl: string, runId: string, connectionLimit?: number): Promise<MariaDbRunUser> {
  const opts = mysqlOptions(adminUrl);
  const user = runUserName(runId);
  const password = randomBytes(18).toString('base64url');
  const db = opts.database ?? 'poolbench_lab';
  const conn = await mysql.createConnection(opts);
  try {
    await conn.query('DROP USER IF EXISTS ?@?', [user, '127.0.0.1']);
    await conn.query(`CREATE USER ?@? IDENTIFIED BY ?${connectionLimit !== undefined ? ` WITH MAX_USER_CONNECTIONS ${Math.trunc(connectionLimit)}` : ''}`, [user, '127.0.0.1', password]);
    await conn.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON \`${db.replace(/`/g, '')}\`.* TO ?@?`, [user, '127.0.0.1']);
    // /ready probes and the monitor see it too
    await conn.query('GRANT PROCESS ON *.* TO ?@?', [user, '127.0.0.1']);
  } finally {
    await conn.end().catch(() => {});
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
        // Sessions still open (a killed instance's) go first, or DROP USER leaves them running.
        const [rows] = await c.query<mysql.RowDataPacket[]>('SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?', [user]);
        for (const r of rows) await c.query(`KILL ${Number(r.ID)}`).catch(() => {});
        await c.query('DROP USER IF EXISTS ?@?', [user, '127.0.0.1']);
      } finally {
        await c.end().catch(() => {});
      }
    },
  };
}
