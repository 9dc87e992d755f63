import { createDb, installationId, LAB_SETUP, toJson, type Db } from '@poolbench/db';
import { seed } from '@poolbench/runs';
import { withTempDatabase } from '@poolbench/db/testing';
import { LabEnvironmentSchema } from '@poolbench/contracts';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv, runtimeBinsOf } from '../env';
import { prepareLabData } from '../runs/prepare-target';
import { recordShapeOwner, shapeOfDatabase, sweepLabShapes, type LabServer } from './lab-shapes';
import { labDataUrl, type LabSetup } from './managed-target';
import { mysqlOptions } from './mariadb-user';

// Two installations (two PoolBench databases) sharing the real lab servers, as a fleet's test
// files or two installations pointed at one server do. Each case gets shapes of its own (odd row
// counts no other test uses), made directly on the server.
const env = loadEnv();
const BASE: Record<LabServer, string> = {
  postgres: env.LAB_DATABASE_URL,
  mariadb: env.LAB_MARIADB_URL,
};
const rowsBase = 7_000 + Math.floor(Math.random() * 900) * 3;
let nextRows = rowsBase;
const freshShape = (): LabSetup => ({ ...LAB_SETUP, rows: nextRows++, fields: 1 });
const nameOf = (server: LabServer, setup: LabSetup) =>
  decodeURIComponent(new URL(labDataUrl(BASE[server], setup, server)).pathname.slice(1));

interface Installation {
  db: Db;
  id: string;
  teamId: string;
  userId: string;
  dispose: () => Promise<void>;
}
const made: Array<{ server: LabServer; name: string }> = [];
let A: Installation;
let B: Installation;

async function installation(label: string): Promise<Installation> {
  const t = await withTempDatabase(label);
  const db = createDb({ url: t.url, max: 3 });
  const ids = await seed(db);
  return {
    db,
    id: await installationId(db),
    teamId: ids.teamId,
    userId: ids.userId,
    dispose: async () => {
      await db.$disconnect();
      await t.dispose();
    },
  };
}

async function pgAdmin<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: BASE.postgres });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}
async function mariaAdmin<T>(f: (c: mysql.Connection) => Promise<T>): Promise<T> {
  const c = await mysql.createConnection(mysqlOptions(BASE.mariadb));
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

async function createShapeDb(server: LabServer, setup: LabSetup): Promise<string> {
  const name = nameOf(server, setup);
  made.push({ server, name });
  if (server === 'postgres')
    await pgAdmin((c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  else await mariaAdmin((c) => c.query(`CREATE DATABASE ${mysql.escapeId(name)}`));
  return name;
}

async function exists(server: LabServer, name: string): Promise<boolean> {
  if (server === 'postgres')
    return pgAdmin(async (c) => {
      const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      return rowCount === 1;
    });
  return mariaAdmin(async (c) => {
    const [rows] = await c.query(
      'SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
      [name],
    );
    return (rows as unknown[]).length === 1;
  });
}

async function owned(server: LabServer, setup: LabSetup, ...owners: Installation[]) {
  const name = await createShapeDb(server, setup);
  for (const o of owners)
    await recordShapeOwner({
      server,
      baseUrl: BASE[server],
      shapeUrl: labDataUrl(BASE[server], setup, server),
      installation: o.id,
    });
  return name;
}

const sweep = (server: LabServer, who: Installation, now?: Date) =>
  sweepLabShapes({
    db: who.db,
    server,
    baseUrl: BASE[server],
    installation: who.id,
    retentionDays: 14,
    now,
  });

/** A managed target of `setup` (archived or live) with one run created `daysAgo`. */
async function targetWithRun(
  who: Installation,
  setup: LabSetup,
  opts: { archived: boolean; daysAgo?: number },
) {
  const managed = { program: 'lab-target', setup };
  const target = await who.db.target.create({
    data: {
      teamId: who.teamId,
      name: `shape ${setup.rows}`,
      kind: 'managed',
      baseUrls: [],
      managed: toJson.targetManaged(managed),
      requestDefaults: {},
      archivedAt: opts.archived ? new Date() : null,
    },
  });
  if (opts.daysAgo === undefined) return;
  const experiment = await who.db.experiment.create({
    data: { teamId: who.teamId, targetId: target.id, name: 'old', repeats: 1, status: 'completed' },
  });
  await who.db.run.create({
    data: {
      teamId: who.teamId,
      experimentId: experiment.id,
      targetId: target.id,
      repeatIndex: 0,
      sequence: 0,
      poolConfigSnapshot: {},
      scenarioSnapshot: {},
      targetSnapshot: { kind: 'managed', managed: { program: 'lab-target', setup: { ...setup } } },
      status: 'succeeded',
      createdAt: new Date(Date.now() - opts.daysAgo * 86_400_000),
    },
  });
}

beforeAll(async () => {
  [A, B] = await Promise.all([installation('shapes_a'), installation('shapes_b')]);
});

afterAll(async () => {
  for (const { server, name } of made) {
    if (server === 'postgres')
      await pgAdmin((c) =>
        c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
      );
    else await mariaAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${mysql.escapeId(name)}`));
  }
  await Promise.all([A?.dispose(), B?.dispose()]);
});

describe('installation identity', () => {
  it('is made once per database and differs between installations', async () => {
    expect(A.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await installationId(A.db)).toBe(A.id);
    expect(B.id).not.toBe(A.id);
  });
});

describe('shape database names', () => {
  it('reads back the shape labDataUrl named, and nothing else', () => {
    const s = { rows: 123, fields: 4, roles: 5, permissions: 6, shards: 2 };
    expect(shapeOfDatabase(BASE.postgres, nameOf('postgres', s), 'postgres')).toEqual(s);
    expect(shapeOfDatabase(BASE.mariadb, nameOf('mariadb', s), 'mariadb')).toEqual({
      ...s,
      shards: LAB_SETUP.shards,
    });
    expect(shapeOfDatabase(BASE.postgres, 'poolbench_lab', 'postgres')).toBeNull();
    expect(shapeOfDatabase(BASE.postgres, 'other_123x4_r5_p6_s2', 'postgres')).toBeNull();
    expect(shapeOfDatabase(BASE.postgres, nameOf('mariadb', s), 'postgres')).toBeNull();
  });
});

describe.each(['postgres', 'mariadb'] as const)('housekeeping of %s shape databases', (server) => {
  it('drops a shape its only owner no longer uses', async () => {
    const name = await owned(server, freshShape(), A);
    const swept = await sweep(server, A);
    expect(swept.dropped).toContain(name);
    expect(await exists(server, name)).toBe(false);
  });

  it("never drops another installation's shape, nor one nobody recorded", async () => {
    const theirs = await owned(server, freshShape(), B);
    const nobodys = await createShapeDb(server, freshShape());
    const swept = await sweep(server, A);
    expect(swept.dropped).not.toContain(theirs);
    expect(swept.dropped).not.toContain(nobodys);
    expect(await exists(server, theirs)).toBe(true);
    expect(await exists(server, nobodys)).toBe(true);
  });

  it('lets go of a shared shape; the last owner drops it', async () => {
    const name = await owned(server, freshShape(), A, B);
    const first = await sweep(server, A);
    expect(first.released).toContain(name);
    expect(await exists(server, name)).toBe(true);
    const again = await sweep(server, A);
    expect(again.released).not.toContain(name); // A is no longer recorded in it
    const last = await sweep(server, B);
    expect(last.dropped).toContain(name);
    expect(await exists(server, name)).toBe(false);
  });

  it('keeps a shape a live target uses, whatever its age', async () => {
    const setup = freshShape();
    const name = await owned(server, setup, A);
    await targetWithRun(A, setup, { archived: false });
    await sweep(server, A, new Date(Date.now() + 365 * 86_400_000));
    expect(await exists(server, name)).toBe(true);
  });

  it('keeps the shape of a recent run for the retention, then drops it', async () => {
    const setup = freshShape();
    const name = await owned(server, setup, A);
    await targetWithRun(A, setup, { archived: true, daysAgo: 3 });
    await sweep(server, A);
    expect(await exists(server, name)).toBe(true);
    const later = await sweep(server, A, new Date(Date.now() + 12 * 86_400_000));
    expect(later.dropped).toContain(name);
    expect(await exists(server, name)).toBe(false);
  });
});

describe('a run that sets a shape up', () => {
  it('records its installation on the shape database', async () => {
    const setup = freshShape();
    const url = labDataUrl(BASE.postgres, setup, 'postgres');
    made.push({ server: 'postgres', name: nameOf('postgres', setup) });
    const environment = LabEnvironmentSchema.parse({});
    const deps = {
      labTargetBin: runtimeBinsOf(env).labTargetBin,
      labDatabaseUrl: env.LAB_DATABASE_URL,
      labMariadbUrl: env.LAB_MARIADB_URL,
    };
    const lab = await prepareLabData(deps, environment, setup, undefined, A.id);
    expect(lab.databaseUrl).toBe(url);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query('SELECT installation FROM public.poolbench_owner');
      expect(rows).toEqual([{ installation: A.id }]);
    } finally {
      await c.end();
    }
    // and its own sweep, with no target of the shape left, drops it
    expect((await sweep('postgres', A)).dropped).toContain(nameOf('postgres', setup));
  });
});
