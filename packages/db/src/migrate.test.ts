import { mkdtempSync, mkdirSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS_DIR, readMigrations } from './migrate';
import { withTempDatabase } from './test-db';
import type pg from 'pg';

describe('migrator', () => {
  let db: { url: string; client: pg.Client; dispose: () => Promise<void> };
  beforeAll(async () => {
    db = await withTempDatabase('migrate');
  });
  afterAll(async () => db?.dispose());

  it('records migrations as Prisma does: sha256 of the file, finished, one step', async () => {
    const files = readMigrations();
    const { rows } = await db.client.query('SELECT migration_name, checksum, finished_at, applied_steps_count, rolled_back_at FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, r] of rows.entries()) {
      expect(r.checksum).toBe(files[i]!.checksum);
      expect(r.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.applied_steps_count).toBe(1);
      expect(r.rolled_back_at).toBeNull();
    }
  });

  it('is idempotent', async () => {
    const again = await migrate({ url: db.url });
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied.length).toBe(readMigrations().length);
  });

  it('refuses a migration edited after it was applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pb-mig-'));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const first = readMigrations(dir)[0]!;
    writeFileSync(join(dir, first.name, 'migration.sql'), `${first.sql}\n-- edited\n`);
    await expect(migrate({ url: db.url, dir })).rejects.toThrow(/was modified after it was applied/);
  });

  it('rolls back a failing migration, records it truthfully, and applies the fixed one later', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pb-mig-'));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    mkdirSync(join(dir, '29990101000000_broken'));
    writeFileSync(join(dir, '29990101000000_broken', 'migration.sql'), 'CREATE TABLE "Probe" (id int);\nSELECT * FROM no_such_table;');
    await expect(migrate({ url: db.url, dir })).rejects.toThrow(/failed and was rolled back.*no_such_table/);
    const probe = await db.client.query(`SELECT to_regclass('public."Probe"') AS t`);
    expect(probe.rows[0].t).toBeNull();
    const row = await db.client.query(`SELECT rolled_back_at, finished_at, logs FROM "_prisma_migrations" WHERE migration_name = '29990101000000_broken'`);
    expect(row.rows[0].finished_at).toBeNull();
    expect(row.rows[0].rolled_back_at).toBeInstanceOf(Date);
    writeFileSync(join(dir, '29990101000000_broken', 'migration.sql'), 'CREATE TABLE "Probe" (id int);');
    const fixed = await migrate({ url: db.url, dir });
    expect(fixed.applied).toEqual(['29990101000000_broken']);
  });
});
