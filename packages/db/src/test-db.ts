import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrl } from './env';
import { migrate, readMigrations } from './migrate';
import type { Db } from './client';
import { toJson } from './json/to-json';
import { seedDemoTeam } from './seed';
import { scenarioRowData } from './services/scenario-row';

/**
 * Test databases are copies of one template that holds every migration: replaying all
 * migrations per test file cost seconds each, `CREATE DATABASE … TEMPLATE` costs a fraction.
 * The template's name carries a hash of the migration files, so a changed or added migration
 * makes a new one; templates nobody used for a day are dropped (another checkout on the same
 * Postgres may still use its own). Building, cloning and dropping happen under one advisory
 * lock, so concurrent test processes never race, and no connection to a template stays open
 * (CREATE DATABASE … TEMPLATE fails while anyone is connected to it): a finished template
 * refuses connections.
 */
const TEMPLATE_PREFIX = 'poolbench_tmpl_';
// pg_advisory_lock key of the template (any constant distinct from Prisma's 72707369).
const TEMPLATE_LOCK = 72707370;
const UNUSED_TEMPLATE_TTL_MS = 24 * 3600_000;

/** The template database's name for the current migration files. */
export function templateDatabaseName(): string {
  const h = createHash('sha256');
  for (const m of readMigrations()) h.update(`${m.name}\0${m.checksum}\n`);
  return `${TEMPLATE_PREFIX}${h.digest('hex').slice(0, 16)}`;
}

function urlFor(name: string): string {
  const url = new URL(databaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function cloneFromTemplate(admin: pg.Client, name: string): Promise<void> {
  const tmpl = templateDatabaseName();
  await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
  try {
    const { rows } = await admin.query<{ datname: string; description: string | null }>(
      `SELECT d.datname, shobj_description(d.oid, 'pg_database') AS description
         FROM pg_database d WHERE d.datname LIKE $1`,
      [`${TEMPLATE_PREFIX}%`],
    );
    if (!rows.some((r) => r.datname === tmpl)) {
      // Built under another name and renamed when complete: a process that dies halfway
      // leaves only a `_wip` database, which the next builder drops.
      const wip = `${tmpl}_wip`;
      await admin.query(`DROP DATABASE IF EXISTS "${wip}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${wip}"`);
      await migrate({ url: urlFor(wip) });
      await admin.query(`ALTER DATABASE "${wip}" RENAME TO "${tmpl}"`);
      await admin.query(`ALTER DATABASE "${tmpl}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    }
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${tmpl}"`);
    await admin.query(`COMMENT ON DATABASE "${tmpl}" IS '${new Date().toISOString()}'`);
    // Under the lock nobody is building, so any `_wip` left is from a builder that died.
    for (const r of rows) {
      if (r.datname.startsWith(tmpl)) continue; // this template, or its `_wip` handled above
      const lastUsed = Date.parse(r.description ?? '');
      const wip = r.datname.endsWith('_wip');
      if (!wip && Date.now() - lastUsed < UNUSED_TEMPLATE_TTL_MS) continue;
      await admin.query(`ALTER DATABASE "${r.datname}" WITH IS_TEMPLATE false`);
      await admin.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => {});
  }
}

/**
 * A fresh, migrated database on the real local Postgres for one test file, dropped afterwards,
 * so tests never touch the dev database or each other. `migrationsDir` migrates from scratch
 * from another folder (e.g. all but the newest migration, to test an upgrade) instead of
 * copying the template.
 */
export async function withTempDatabase(
  label: string,
  opts: { migrationsDir?: string } = {},
): Promise<{ url: string; client: pg.Client; dispose: () => Promise<void> }> {
  const name = `poolbench_test_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl() });
  await admin.connect();
  const url = urlFor(name);
  try {
    if (opts.migrationsDir) {
      await admin.query(`CREATE DATABASE "${name}"`);
      await migrate({ url, dir: opts.migrationsDir });
    } else {
      await cloneFromTemplate(admin, name);
    }
  } catch (err) {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.end().catch(() => {});
    throw err;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    url,
    client,
    dispose: async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * The demo team with its lab target (`seedDemoTeam`), one pool config and one scenario: what this
 * package's own tests write runs against. (The seed presets' rows come from @poolbench/runs.)
 */
export async function seedTestTeam(db: Db): Promise<{
  teamId: string;
  userId: string;
  targetId: string;
  poolConfigId: string;
  scenarioId: string;
}> {
  const ids = await seedDemoTeam(db);
  const pc = await db.poolConfig.create({
    data: {
      teamId: ids.teamId,
      targetId: ids.targetId,
      name: 'test · fixed 4',
      strategy: 'fixed',
      params: toJson.poolParams({ maxConns: 4 }),
    },
  });
  const sc = await db.scenario.create({
    data: {
      teamId: ids.teamId,
      name: 'test · sustained',
      ...scenarioRowData({ template: 'sustained', params: { vus: 2, durationMs: 1000 } }),
    },
  });
  return { ...ids, poolConfigId: pc.id, scenarioId: sc.id };
}
