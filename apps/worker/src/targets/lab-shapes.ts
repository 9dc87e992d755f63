import { LAB_SETUP, type Db } from '@poolbench/db';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/contracts';
import { labDataUrl, type LabSetup } from './managed-target';
import { mysqlOptions } from './mariadb-user';

/**
 * Shape databases on the lab servers, and who they belong to.
 *
 * Each data-set shape other than the default gets a database of its own (`labDataUrl`), and a lab
 * server may be shared by several installations (a fleet's test databases, or two PoolBench
 * installations pointed at one server). Each installation that set a shape up records itself in
 * the shape database's `poolbench_owner` table; housekeeping drops a shape database only when the
 * last recorded owner is the installation sweeping and none of its live targets or recent runs
 * uses the shape. A database with no owner table, or with another installation in it, is never
 * dropped by this installation.
 */

const OWNER_TABLE = 'poolbench_owner';
/** Postgres advisory lock (session level, taken in the lab server's base database). */
const SHAPE_LOCK_KEY = 0x6c616273686170; // "labshap"
/** MariaDB named lock: server-wide. */
const SHAPE_LOCK_NAME = 'poolbench_lab_shapes';

export type LabServer = 'postgres' | 'mariadb';

const databaseOf = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
};

const SHAPE_SUFFIX = /_(\d+)x(\d+)_r(\d+)_p(\d+)(?:_s(\d+))?$/;

/**
 * The shape a database name stands for on this server, or null when the name is not one
 * `labDataUrl` gives for this base URL (another database, or another installation's naming).
 */
export function shapeOfDatabase(baseUrl: string, name: string, server: LabServer): LabSetup | null {
  const m = SHAPE_SUFFIX.exec(name);
  if (!m) return null;
  const setup: LabSetup = {
    rows: Number(m[1]),
    fields: Number(m[2]),
    roles: Number(m[3]),
    permissions: Number(m[4]),
    shards: m[5] === undefined ? LAB_SETUP.shards : Number(m[5]),
  };
  if ((server === 'postgres') !== (m[5] !== undefined)) return null;
  const url = labDataUrl(baseUrl, setup, server);
  return url !== baseUrl && databaseOf(url) === name ? setup : null;
}

async function withPgLock<T>(baseUrl: string, f: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: baseUrl, application_name: 'poolbench-shapes' });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [SHAPE_LOCK_KEY]);
    return await f(admin);
  } finally {
    await admin.end().catch(() => {});
  }
}

async function withMariaLock<T>(
  baseUrl: string,
  f: (admin: mysql.Connection) => Promise<T>,
): Promise<T> {
  const admin = await mysql.createConnection(mysqlOptions(baseUrl));
  try {
    const [rows] = await admin.query('SELECT GET_LOCK(?, 60) AS got', [SHAPE_LOCK_NAME]);
    if ((rows as Array<{ got: number }>)[0]?.got !== 1)
      throw new Error('lab shapes: the MariaDB lock was not granted within 60 s');
    return await f(admin);
  } finally {
    await admin.end().catch(() => {});
  }
}

/**
 * Records `installation` as an owner of the shape database at `shapeUrl` (made by `lab-target
 * setup` just before). Under the lock housekeeping takes, so a sweep never drops a database
 * between this record and the run that reads it. Throws when the database is gone (a sweep
 * dropped it after set-up): the caller sets it up again.
 */
export async function recordShapeOwner(opts: {
  server: LabServer;
  baseUrl: string;
  shapeUrl: string;
  installation: string;
}): Promise<void> {
  if (opts.server === 'postgres') {
    await withPgLock(opts.baseUrl, async () => {
      const c = new pg.Client({
        connectionString: opts.shapeUrl,
        application_name: 'poolbench-shapes',
      });
      await c.connect();
      try {
        await c.query(
          `CREATE TABLE IF NOT EXISTS public.${OWNER_TABLE} (installation text PRIMARY KEY, recorded_at timestamptz NOT NULL DEFAULT now())`,
        );
        await c.query(
          `INSERT INTO public.${OWNER_TABLE} (installation) VALUES ($1) ON CONFLICT (installation) DO UPDATE SET recorded_at = now()`,
          [opts.installation],
        );
      } finally {
        await c.end().catch(() => {});
      }
    });
    return;
  }
  await withMariaLock(opts.baseUrl, async (admin) => {
    const db = mysql.escapeId(databaseOf(opts.shapeUrl));
    await admin.query(
      `CREATE TABLE IF NOT EXISTS ${db}.${OWNER_TABLE} (installation varchar(64) NOT NULL PRIMARY KEY, recorded_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP) ENGINE=InnoDB`,
    );
    await admin.query(
      `INSERT INTO ${db}.${OWNER_TABLE} (installation) VALUES (?) ON DUPLICATE KEY UPDATE recorded_at = CURRENT_TIMESTAMP`,
      [opts.installation],
    );
  });
}

/** The shape a target or run snapshot reads: the default with its stored `managed.setup`. */
function setupOf(managed: unknown): LabSetup | null {
  if (!managed || typeof managed !== 'object') return null;
  const stored = (managed as { setup?: unknown }).setup;
  return { ...LAB_SETUP, ...(stored && typeof stored === 'object' ? stored : {}) } as LabSetup;
}

/**
 * The shape database names this installation still uses on a server: every live managed
 * target's, and every run's that has not ended or was created within the retention. Both servers'
 * spellings of each shape count (the database a run reads can be chosen by its pool config).
 */
async function namesInUse(
  db: Db,
  baseUrl: string,
  server: LabServer,
  since: Date,
): Promise<Set<string>> {
  const [targets, runs] = await Promise.all([
    db.target.findMany({
      where: { kind: 'managed', archivedAt: null },
      select: { managed: true },
    }),
    db.run.findMany({
      where: {
        OR: [
          { createdAt: { gte: since } },
          { status: { notIn: [...TERMINAL_RUN_STATUSES] as RunStatus[] } },
        ],
        target: { kind: 'managed' },
      },
      select: { targetSnapshot: true },
    }),
  ]);
  const names = new Set<string>();
  const managedOf = (snap: unknown) => (snap as { managed?: unknown } | null)?.managed;
  for (const managed of [
    ...targets.map((t) => t.managed),
    ...runs.map((r) => managedOf(r.targetSnapshot)),
  ]) {
    const setup = setupOf(managed);
    if (setup) names.add(databaseOf(labDataUrl(baseUrl, setup, server)));
  }
  return names;
}

export interface ShapeSweep {
  /** databases dropped: this installation was their last owner and nothing of it uses them */
  dropped: string[];
  /** databases this installation let go of; other installations still own them */
  released: string[];
  /** databases that could not be dropped now (connections open), with the reason */
  skipped: Array<{ name: string; reason: string }>;
}

/**
 * Drops the shape databases on one lab server that this installation owns alone and has not used
 * for `retentionDays` (no live target of that shape, no run of it created since); lets go of the
 * ones other installations own too. Never touches the base database, a database without the
 * owner table, or one this installation is not recorded in.
 */
export async function sweepLabShapes(opts: {
  db: Db;
  server: LabServer;
  baseUrl: string;
  installation: string;
  retentionDays: number;
  now?: Date;
}): Promise<ShapeSweep> {
  const out: ShapeSweep = { dropped: [], released: [], skipped: [] };
  const since = new Date((opts.now ?? new Date()).getTime() - opts.retentionDays * 86_400_000);
  const inUse = await namesInUse(opts.db, opts.baseUrl, opts.server, since);
  const sweep = async (
    list: () => Promise<string[]>,
    owners: (name: string) => Promise<string[]>,
    release: (name: string) => Promise<void>,
    drop: (name: string) => Promise<void>,
  ) => {
    for (const name of await list()) {
      if (inUse.has(name) || !shapeOfDatabase(opts.baseUrl, name, opts.server)) continue;
      const recorded = await owners(name);
      if (!recorded.includes(opts.installation)) continue;
      if (recorded.length > 1) {
        await release(name);
        out.released.push(name);
        continue;
      }
      try {
        await drop(name);
        out.dropped.push(name);
      } catch (err) {
        out.skipped.push({ name, reason: (err as Error).message });
      }
    }
  };

  if (opts.server === 'postgres') {
    await withPgLock(opts.baseUrl, async (admin) => {
      const ownersIn = async (name: string) => {
        const c = new pg.Client({
          connectionString: withDatabase(opts.baseUrl, name),
          application_name: 'poolbench-shapes',
        });
        await c.connect();
        try {
          const { rows } = await c.query<{ installation: string }>(
            `SELECT installation FROM public.${OWNER_TABLE}`,
          );
          return rows.map((r) => r.installation);
        } catch {
          return []; // no owner table: not a database any installation recorded
        } finally {
          await c.end().catch(() => {});
        }
      };
      await sweep(
        async () =>
          (
            await admin.query<{ datname: string }>(
              `SELECT datname FROM pg_database WHERE NOT datistemplate AND datname <> current_database()`,
            )
          ).rows.map((r) => r.datname),
        ownersIn,
        async (name) => {
          const c = new pg.Client({ connectionString: withDatabase(opts.baseUrl, name) });
          await c.connect();
          try {
            await c.query(`DELETE FROM public.${OWNER_TABLE} WHERE installation = $1`, [
              opts.installation,
            ]);
          } finally {
            await c.end().catch(() => {});
          }
        },
        // without FORCE: a database someone is connected to stays until the next sweep
        async (name) => void (await admin.query(`DROP DATABASE ${pg.escapeIdentifier(name)}`)),
      );
    });
    return out;
  }

  await withMariaLock(opts.baseUrl, async (admin) => {
    await sweep(
      async () => {
        const [rows] = await admin.query(
          `SELECT TABLE_SCHEMA AS name FROM information_schema.TABLES WHERE TABLE_NAME = ? AND TABLE_SCHEMA <> DATABASE()`,
          [OWNER_TABLE],
        );
        return (rows as Array<{ name: string }>).map((r) => r.name);
      },
      async (name) => {
        const [rows] = await admin.query(
          `SELECT installation FROM ${mysql.escapeId(name)}.${OWNER_TABLE}`,
        );
        return (rows as Array<{ installation: string }>).map((r) => r.installation);
      },
      async (name) =>
        void (await admin.query(
          `DELETE FROM ${mysql.escapeId(name)}.${OWNER_TABLE} WHERE installation = ?`,
          [opts.installation],
        )),
      // MariaDB drops a database others are reading; a shape nothing of ours used for days has no
      // run of ours on it, and no other installation is recorded in it
      async (name) => void (await admin.query(`DROP DATABASE ${mysql.escapeId(name)}`)),
    );
  });
  return out;
}
