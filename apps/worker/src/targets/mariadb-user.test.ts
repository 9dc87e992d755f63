import mysql from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import {
  createMariaDbRunUser,
  mysqlOptions,
  runUserName,
  type MariaDbRunUser,
} from './mariadb-user';
import { isAlive } from './process-registry';

// The run's own MariaDB user on the real server: attribution, the connection limit, least
// privilege, and no user left behind by a worker killed with -9.
const ADMIN = loadEnv().LAB_MARIADB_URL;
const made: MariaDbRunUser[] = [];
afterAll(async () => {
  for (const u of made) await u.drop();
});

const admin = () => mysql.createConnection(mysqlOptions(ADMIN));
const userExists = async (user: string) => {
  const c = await admin();
  try {
    const [rows] = await c.query<mysql.RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM mysql.user WHERE User = ?',
      [user],
    );
    return Number(rows[0]!.n) > 0;
  } finally {
    await c.end();
  }
};

describe('a MariaDB user per run', () => {
  it('holds at most its connection limit (error 1226) and reads only the lab database', async () => {
    const u = await createMariaDbRunUser(ADMIN, `limit${process.pid}`, 2);
    made.push(u);
    const opts = mysqlOptions(u.databaseUrl);
    const a = await mysql.createConnection(opts);
    const b = await mysql.createConnection(opts);
    const third = await mysql.createConnection(opts).then(
      async (c) => {
        await c.end();
        return null;
      },
      (e: { errno?: number }) => e.errno,
    );
    expect(third).toBe(1226);
    const [rows] = await a.query<mysql.RowDataPacket[]>('SELECT DATABASE() AS db');
    expect(rows[0]!.db).toBe(new URL(ADMIN).pathname.slice(1));
    const other = await a.query('SELECT * FROM mysql.user').then(
      () => 'read',
      (e: { errno?: number }) => e.errno,
    );
    expect(other).toBe(1142); // SELECT command denied
    await a.end();
    await b.end();
    await u.drop();
    expect(await userExists(u.user)).toBe(false);
  });

  it("drops users whose worker died, never a live worker's", async () => {
    let deadPid = 4_000_000;
    while (isAlive(deadPid)) deadPid++;
    const orphan = runUserName('orphanrun01', deadPid);
    const c = await admin();
    await c.query("CREATE USER IF NOT EXISTS ?@'127.0.0.1' IDENTIFIED BY 'x'", [orphan]);
    await c.end();
    const live = await createMariaDbRunUser(ADMIN, `live${process.pid}`);
    made.push(live);
    // the next run on this host sweeps the orphan and keeps this worker's own user
    const next = await createMariaDbRunUser(ADMIN, `next${process.pid}`);
    made.push(next);
    expect(await userExists(orphan)).toBe(false);
    expect(await userExists(live.user)).toBe(true);
  });
});
