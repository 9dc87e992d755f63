import type { Db } from '@poolbench/db';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/contracts';
import { dropLimitedRole, LIMITED_ROLE_PREFIX } from './limited-role';
import { dropMariaDbUser, hostTag, mysqlOptions, RUN_USER_PATTERN } from './mariadb-user';
import { isAlive } from './process-registry';
import { hostname } from 'node:os';

/**
 * The run a database user was made for, by the id suffix in its name, or null when no run has it.
 * Names keep the last characters of the run id (cuid: lowercase letters and digits).
 */
async function runOf(db: Db, idSuffix: string) {
  if (!/^[a-z0-9]{6,}$/.test(idSuffix)) return null;
  const runs = await db.run.findMany({
    where: { id: { endsWith: idSuffix } },
    select: { id: true, status: true },
    take: 2,
  });
  return runs.length === 1 ? runs[0]! : null;
}

const ended = (status: string) => TERMINAL_RUN_STATUSES.includes(status as RunStatus);

export interface RunUserSweep {
  postgres: string[];
  mariadb: string[];
}

/**
 * Drops the per-run database users (Postgres `pb_limited_<run>` roles, MariaDB `pb_<host>_<pid>_
 * <run>` users) whose run has ended: a worker killed with -9 never dropped them, and each holds a
 * password with write access to the lab data. Decided by the run's state in PoolBench's database,
 * not by whether the pid that made it is alive (pids are reused). A user whose run is not in this
 * installation's database is left alone while the worker that made it may be alive (another
 * installation may share the lab server); once that worker is dead it is an orphan and goes too.
 */
export async function sweepRunUsers(deps: {
  db: Db;
  labDatabaseUrl: string;
  labMariadbUrl: string | null;
}): Promise<RunUserSweep> {
  const out: RunUserSweep = { postgres: [], mariadb: [] };
  const c = new pg.Client({
    connectionString: deps.labDatabaseUrl,
    application_name: 'poolbench-worker-roles',
  });
  await c.connect();
  try {
    const { rows } = await c.query<{ rolname: string; owner: string | null }>(
      `SELECT r.rolname, shobj_description(r.oid, 'pg_authid') AS owner FROM pg_roles r WHERE r.rolname LIKE $1`,
      [`${LIMITED_ROLE_PREFIX}%`],
    );
    for (const { rolname, owner } of rows) {
      const run = await runOf(deps.db, rolname.slice(LIMITED_ROLE_PREFIX.length));
      const [host, pid] = (owner ?? '').split(':');
      const orphan =
        !run &&
        host === hostname() &&
        !!pid &&
        Number(pid) !== process.pid &&
        !isAlive(Number(pid));
      if ((run && ended(run.status)) || orphan) {
        await dropLimitedRole(c, rolname);
        out.postgres.push(rolname);
      }
    }
  } finally {
    await c.end().catch(() => {});
  }
  if (deps.labMariadbUrl) {
    // MariaDB is optional (POOLBENCH_MARIADB=0): when it does not answer there is nothing to drop now
    const m = await mysql.createConnection(mysqlOptions(deps.labMariadbUrl)).catch(() => null);
    if (!m) return out;
    try {
      const [rows] = await m.query<mysql.RowDataPacket[]>(
        'SELECT User FROM mysql.user WHERE User LIKE ?',
        ['pb\\_%'],
      );
      for (const r of rows) {
        const user = String(r.User);
        const match = RUN_USER_PATTERN.exec(user);
        if (!match) continue;
        const [, host, pid, suffix] = match as unknown as [string, string, string, string];
        const run = await runOf(deps.db, suffix);
        // ended here; or gone from this database (its experiment deleted) and made on this host by
        // a worker that is dead: nobody else can still need it
        const orphan =
          !run && host === hostTag() && Number(pid) !== process.pid && !isAlive(Number(pid));
        if ((run && ended(run.status)) || orphan) {
          await dropMariaDbUser(m, user);
          out.mariadb.push(user);
        }
      }
    } finally {
      await m.end().catch(() => {});
    }
  }
  return out;
}
