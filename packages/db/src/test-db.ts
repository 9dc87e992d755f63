import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrl } from './env';
import { migrate } from './migrate';

/**
 * A fresh, migrated database on the real local Postgres for one test file, dropped afterwards,
 * so tests never touch the dev database or each other. `migrationsDir` migrates from another
 * folder (e.g. all but the newest migration, to test an upgrade).
 */
export async function withTempDatabase(
  label: string,
  opts: { migrationsDir?: string } = {},
): Promise<{ url: string; client: pg.Client; dispose: () => Promise<void> }> {
  const name = `poolbench_test_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(databaseUrl());
  url.pathname = `/${name}`;
  await migrate({ url: url.toString(), dir: opts.migrationsDir });
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    url: url.toString(),
    client,
    dispose: async () => {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
