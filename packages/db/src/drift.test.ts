import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffShapes, SCHEMA_PATH, shapeFromDatabase, shapeFromSchema } from './drift';
import { withTempDatabase } from './test-db';

describe('schema drift', () => {
  let client: pg.Client;
  let dispose: () => Promise<void>;
  const schema = readFileSync(SCHEMA_PATH, 'utf8');

  beforeAll(async () => {
    ({ client, dispose } = await withTempDatabase('drift'));
  });
  afterAll(async () => dispose?.());

  it('the migrated database matches schema.prisma', async () => {
    const diff = diffShapes(shapeFromSchema(schema), await shapeFromDatabase(client));
    expect(diff).toEqual([]);
  });

  it('reports a deliberately drifted datamodel: an added column, a loosened column, a new index', async () => {
    const drifted = schema
      .replace('model Worker {', 'model Worker {\n  driftProbe String')
      .replace('  name          String\n  email', '  name          String?\n  email')
      .replace('@@index([status])', '@@index([status])\n  @@index([workerId])');
    expect(drifted).not.toBe(schema);
    const diff = diffShapes(shapeFromSchema(drifted), await shapeFromDatabase(client));
    expect(diff).toContain('Worker.driftProbe is missing in the database');
    expect(diff).toContain('User.name: schema says nullable, database says NOT NULL');
    expect(diff).toContain('Run: index (workerId) is in schema.prisma but not in the database');
    expect(diff).toHaveLength(3);
  });

  it('tells a live-rows unique index (partial, WHERE archivedAt IS NULL) from a plain or a full unique one', async () => {
    const live = 'map: "PoolConfig_targetId_name_live_key"';
    expect(schema).toContain(live);
    const plain = diffShapes(
      shapeFromSchema(schema.replace(live, 'map: "PoolConfig_targetId_name_idx"')),
      await shapeFromDatabase(client),
    );
    expect(plain).toEqual([
      'PoolConfig: unique (targetId,name WHERE archivedAt IS NULL) is in the database but not in schema.prisma',
      'PoolConfig: index (targetId,name) is in schema.prisma but not in the database',
    ]);
    const full = diffShapes(
      shapeFromSchema(
        schema.replace(`@@index([targetId, name], ${live})`, '@@unique([targetId, name])'),
      ),
      await shapeFromDatabase(client),
    );
    expect(full).toContain(
      'PoolConfig: unique (targetId,name) is in schema.prisma but not in the database',
    );
  });

  it('checks partitioning: partitions are not tables of their own, and a model comment states the key', async () => {
    const actual = await shapeFromDatabase(client);
    expect(Object.keys(actual.tables).filter((t) => /_(p\d{6}|default)$/.test(t))).toEqual([]);
    expect(actual.tables.RunSecond!.partitionKey).toBe('RANGE (ts)');
    const unstated = schema.replace(
      '/// @partitioned RANGE (ts): monthly partitions, like RunSecond.',
      '/// (comment removed)',
    );
    expect(unstated).not.toBe(schema);
    expect(diffShapes(shapeFromSchema(unstated), actual)).toEqual([
      'ResourceSample: partitioned by nothing in schema, by RANGE (ts) in database',
    ]);
  });

  it('reports drift made in the database: a column dropped and an enum value added', async () => {
    await client.query('ALTER TABLE "ShareLink" DROP COLUMN "accessCount"');
    await client.query(`ALTER TYPE "RunStatus" ADD VALUE 'paused'`);
    const diff = diffShapes(shapeFromSchema(schema), await shapeFromDatabase(client));
    expect(diff).toContain('ShareLink.accessCount is missing in the database');
    expect(diff.some((d) => d.startsWith('enum RunStatus:'))).toBe(true);
  });
});
