import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { databaseUrl } from './env';

/**
 * The project's own migrator. The native Prisma schema engine cannot be downloaded on our
 * machines, so migrations are hand-written SQL in Prisma's folder layout and applied here,
 * recorded in `_prisma_migrations` exactly as Prisma records them (sha256 checksum of the file,
 * name, timestamps, applied steps) so `prisma migrate status|deploy` agree wherever the engine
 * exists.
 */
export const MIGRATIONS_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'prisma',
  'migrations',
);

// Prisma migrate's advisory lock key, so our migrator and Prisma's never run at once.
const PRISMA_ADVISORY_LOCK = 72707369;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(
    readonly code: 'checksum_mismatch' | 'failed' | 'missing_locally',
    message: string,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

export function readMigrations(dir = MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

export async function migrate(
  opts: { url?: string; dir?: string; log?: (msg: string) => void } = {},
): Promise<MigrateResult> {
  const log = opts.log ?? (() => {});
  const files = readMigrations(opts.dir);
  const client = new pg.Client({
    connectionString: opts.url ?? databaseUrl(),
    application_name: 'poolbench-migrate',
  });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
      logs: string | null;
    }>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at, logs FROM "_prisma_migrations" ORDER BY started_at',
    );

    const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed) {
      throw new MigrationError(
        'failed',
        `migration ${failed.migration_name} failed earlier and was not rolled back; fix the database, then mark it rolled back. Log: ${failed.logs ?? 'none'}`,
      );
    }
    const done = new Map(
      rows.filter((r) => r.finished_at !== null).map((r) => [r.migration_name, r]),
    );
    const local = new Set(files.map((f) => f.name));
    for (const name of done.keys()) {
      if (!local.has(name)) {
        throw new MigrationError(
          'missing_locally',
          `migration ${name} is applied in the database but missing from ${opts.dir ?? MIGRATIONS_DIR}`,
        );
      }
    }

    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const file of files) {
      const prior = done.get(file.name);
      if (prior) {
        if (prior.checksum !== file.checksum) {
          throw new MigrationError(
            'checksum_mismatch',
            `migration ${file.name} was modified after it was applied (checksum ${prior.checksum.slice(0, 12)}… in the database, ${file.checksum.slice(0, 12)}… on disk); add a new migration instead`,
          );
        }
        result.alreadyApplied.push(file.name);
        continue;
      }
      const id = randomUUID();
      await client.query(
        'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
        [id, file.checksum, file.name],
      );
      try {
        await client.query('BEGIN');
        await client.query(file.sql);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        // The transaction rolled back, so the database is as before: record that truthfully.
        await client.query(
          'UPDATE "_prisma_migrations" SET logs = $2, rolled_back_at = now() WHERE id = $1',
          [id, String(err instanceof Error ? err.message : err)],
        );
        throw new MigrationError(
          'failed',
          `migration ${file.name} failed and was rolled back: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      await client.query(
        'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
        [id],
      );
      log(`applied ${file.name}`);
      result.applied.push(file.name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
}

/**
 * Local migrations not (successfully) applied to the database yet, without taking the lock or
 * changing anything: what a web or worker pod waits on while the migration Job of its release runs.
 */
export async function pendingMigrations(
  opts: { url?: string; dir?: string } = {},
): Promise<string[]> {
  const files = readMigrations(opts.dir);
  const client = new pg.Client({
    connectionString: opts.url ?? databaseUrl(),
    application_name: 'poolbench-migrate-wait',
  });
  await client.connect();
  try {
    const { rows: exists } = await client.query<{ t: string | null }>(
      `SELECT to_regclass('"_prisma_migrations"')::text AS t`,
    );
    if (!exists[0]?.t) return files.map((f) => f.name);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL',
    );
    // A row with another checksum is not this release's migration: keep waiting (the Job will say why).
    const done = new Set(rows.map((r) => `${r.migration_name}:${r.checksum}`));
    return files.filter((f) => !done.has(`${f.name}:${f.checksum}`)).map((f) => f.name);
  } finally {
    await client.end();
  }
}
