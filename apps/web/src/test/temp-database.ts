import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, databaseUrl, type Db } from '@poolbench/db';
import { migrate } from '@poolbench/db/migrate';

/** A fresh migrated database on the real local Postgres for one test file (same pattern as packages/db). */
export async function withTempDatabase(label: string): Promise<{ db: Db; url: string; dispose: () => Promise<void> }> {
  const name = `poolbench_test_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(databaseUrl());
  url.pathname = `/${name}`;
  await migrate({ url: url.toString() });
  const db = createDb({ url: url.toString(), max: 4, applicationName: 'poolbench-web-test' });
  return {
    db,
    url: url.toString(),
    dispose: async () => {
      await db.$disconnect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
