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

  it('reports drift made in the database: a column dropped and an enum value added', async () => {
    await client.query('ALTER TABLE "ShareLink" DROP COLUMN "accessCount"');
    await client.query(`ALTER TYPE "RunStatus" ADD VALUE 'paused'`);
    const diff = diffShapes(shapeFromSchema(schema), await shapeFromDatabase(client));
    expect(diff).toContain('ShareLink.accessCount is missing in the database');
    expect(diff.some((d) => d.startsWith('enum RunStatus:'))).toBe(true);
  });
});
