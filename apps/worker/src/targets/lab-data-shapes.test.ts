import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { LabEnvironmentSchema } from '@poolbench/contracts';
import { loadEnv, runtimeBinsOf } from '../env';
import { prepareLabData } from '../runs/prepare-target';
import { mysqlOptions } from './mariadb-user';
import type { LabSetup } from './managed-target';

// Targets with different data-set shapes, run one after another by one worker (and so also by a
// fleet sharing the lab server): each run must read its own shape, whatever ran in between.
const env = loadEnv();
const deps = {
  labTargetBin: runtimeBinsOf(env).labTargetBin,
  labDatabaseUrl: env.LAB_DATABASE_URL,
  labMariadbUrl: env.LAB_MARIADB_URL,
};
const A: LabSetup = { rows: 100, fields: 3, roles: 2, permissions: 3, shards: 2 };
const B: LabSetup = { rows: 120, fields: 4, roles: 2, permissions: 3, shards: 2 };
const made = new Set<string>();

async function metaOf(url: string, database: 'postgres' | 'mariadb') {
  if (database === 'postgres') {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query<{ key: string; value: string }>(
        `SELECT key, value FROM lab.meta WHERE key IN ('rows', 'fields')`,
      );
      return Object.fromEntries(rows.map((r) => [r.key, Number(r.value)]));
    } finally {
      await c.end();
    }
  }
  const c = await mysql.createConnection(mysqlOptions(url));
  try {
    const [rows] = await c.query(
      `SELECT \`key\`, value FROM meta WHERE \`key\` IN ('rows', 'fields')`,
    );
    return Object.fromEntries(
      (rows as Array<{ key: string; value: string }>).map((r) => [r.key, Number(r.value)]),
    );
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  for (const url of made) {
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    if (url.startsWith('postgres')) {
      const admin = new URL(url);
      admin.pathname = '/postgres';
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
      await c.end();
    } else {
      const c = await mysql.createConnection(mysqlOptions(url));
      await c.query(`DROP DATABASE IF EXISTS \`${name.replace(/`/g, '')}\``);
      await c.end();
    }
  }
});

describe.each(['postgres', 'mariadb'] as const)('lab data shapes on %s', (database) => {
  const environment = LabEnvironmentSchema.parse({ database });

  it('a shape run after another shape still reads its own data', async () => {
    const a = await prepareLabData(deps, environment, A);
    const b = await prepareLabData(deps, environment, B);
    const again = await prepareLabData(deps, environment, A);
    for (const p of [a, b]) made.add(p.databaseUrl);

    expect(b.databaseUrl).not.toBe(a.databaseUrl);
    expect(again.databaseUrl).toBe(a.databaseUrl);
    expect(await metaOf(again.databaseUrl, database)).toEqual({ rows: 100, fields: 3 });
    expect(await metaOf(b.databaseUrl, database)).toEqual({ rows: 120, fields: 4 });
  });

  it('starts the target on the same database it set up', async () => {
    const p = await prepareLabData(deps, environment, B);
    const used = database === 'postgres' ? p.urls.labDatabaseUrl : p.urls.labMariadbUrl;
    expect(used).toBe(p.databaseUrl);
  });
});
