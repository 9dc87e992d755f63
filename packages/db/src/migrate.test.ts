import { mkdtempSync, mkdirSync, writeFileSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { migrate, MIGRATIONS_DIR, pendingMigrations, readMigrations } from './migrate';
import { withTempDatabase } from './test-db';
import type pg from 'pg';

// every temporary folder this file makes is removed when it ends, pass or fail
const tempDirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('migrator', () => {
  let db: { url: string; client: pg.Client; dispose: () => Promise<void> };
  beforeAll(async () => {
    db = await withTempDatabase('migrate');
  });
  afterAll(async () => db?.dispose());

  it('records migrations as Prisma does: sha256 of the file, finished, one step', async () => {
    const files = readMigrations();
    const { rows } = await db.client.query(
      'SELECT migration_name, checksum, finished_at, applied_steps_count, rolled_back_at FROM "_prisma_migrations" ORDER BY migration_name',
    );
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
    const dir = tempDir('pb-mig-');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const first = readMigrations(dir)[0]!;
    writeFileSync(join(dir, first.name, 'migration.sql'), `${first.sql}\n-- edited\n`);
    await expect(migrate({ url: db.url, dir })).rejects.toThrow(
      /was modified after it was applied/,
    );
  });

  it('rolls back a failing migration, records it truthfully, and applies the fixed one later', async () => {
    const dir = tempDir('pb-mig-');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    mkdirSync(join(dir, '29990101000000_broken'));
    writeFileSync(
      join(dir, '29990101000000_broken', 'migration.sql'),
      'CREATE TABLE "Probe" (id int);\nSELECT * FROM no_such_table;',
    );
    await expect(migrate({ url: db.url, dir })).rejects.toThrow(
      /failed and was rolled back.*no_such_table/,
    );
    const probe = await db.client.query(`SELECT to_regclass('public."Probe"') AS t`);
    expect(probe.rows[0].t).toBeNull();
    const row = await db.client.query(
      `SELECT rolled_back_at, finished_at, logs FROM "_prisma_migrations" WHERE migration_name = '29990101000000_broken'`,
    );
    expect(row.rows[0].finished_at).toBeNull();
    expect(row.rows[0].rolled_back_at).toBeInstanceOf(Date);
    writeFileSync(
      join(dir, '29990101000000_broken', 'migration.sql'),
      'CREATE TABLE "Probe" (id int);',
    );
    const fixed = await migrate({ url: db.url, dir });
    expect(fixed.applied).toEqual(['29990101000000_broken']);
  });

  it('pendingMigrations lists only what this build has and the database lacks, without changing it', async () => {
    expect(await pendingMigrations({ url: db.url })).toEqual([]);
    const dir = tempDir('pb-mig-');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    mkdirSync(join(dir, '29990202000000_next'));
    writeFileSync(
      join(dir, '29990202000000_next', 'migration.sql'),
      'CREATE TABLE "NextProbe" (id int);',
    );
    expect(await pendingMigrations({ url: db.url, dir })).toEqual(['29990202000000_next']);
    const t = await db.client.query(`SELECT to_regclass('public."NextProbe"') AS t`);
    expect(t.rows[0].t).toBeNull();
  });
});

describe('migrate --wait (the init container of web and worker pods)', () => {
  let db: { url: string; client: pg.Client; dispose: () => Promise<void> };
  beforeAll(async () => {
    // An empty database: what a pod sees while its release's migration Job has not run yet.
    db = await withTempDatabase('migwait', {
      migrationsDir: tempDir('pb-mig-empty-'),
    });
  });
  afterAll(async () => db?.dispose());

  function runCli(args: string[]): Promise<{ code: number | null; out: string }> {
    const cli = join(MIGRATIONS_DIR, '..', '..', 'src', 'cli', 'migrate.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: { ...process.env, DATABASE_URL: db.url },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
  }

  it('gives up with exit 1 and says what is pending when nobody migrates', async () => {
    const r = await runCli(['--wait=1']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/gave up after 1 s: \d+ migration\(s\) pending, first \d+_/);
  });

  it('waits while the schema is behind and exits 0 once the migration has run', async () => {
    const waiting = runCli(['--wait=60']);
    await new Promise((r) => setTimeout(r, 2500));
    await migrate({ url: db.url });
    const r = await waiting;
    expect(r.code).toBe(0);
    expect(r.out).toContain('waiting for the migration job');
    expect(r.out).toContain('schema is up to date');
  });

  it('refuses a malformed timeout by name', async () => {
    const r = await runCli(['--wait=soon']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('--wait takes whole seconds');
  });
});
