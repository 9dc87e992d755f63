import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { LabDatabase, Runtime } from '@poolbench/contracts';
import { mysqlOptions } from './mariadb-user';
import type { RuntimeLauncher } from './runtimes';

const pExecFile = promisify(execFile);
const cache = new Map<string, string>();

/** A program's version line(s), stdout or stderr (nginx -v writes to stderr); cached per worker. */
async function versionOf(cmd: string, args: string[]): Promise<string> {
  const key = `${cmd} ${args.join(' ')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  try {
    const { stdout, stderr } = await pExecFile(cmd, args, { timeout: 15_000 });
    const v = `${stdout}\n${stderr}`.trim().split('\n').filter(Boolean).slice(0, 2).join(' | ');
    cache.set(key, v);
    return v;
  } catch (err) {
    return `unknown (${(err as Error).message.split('\n')[0]})`;
  }
}

/** The database server's own version string, asked over the run's connection URL. */
async function databaseVersion(database: LabDatabase, url: string): Promise<string> {
  const key = `${database} ${new URL(url.replace(/^mariadb:/, 'mysql:')).host}`;
  const hit = cache.get(key);
  if (hit) return hit;
  try {
    let v: string;
    if (database === 'mariadb') {
      const c = await mysql.createConnection(mysqlOptions(url));
      try {
        const [rows] = await c.query<mysql.RowDataPacket[]>('SELECT VERSION() AS v');
        v = `MariaDB ${String(rows[0]?.v)}`;
      } finally {
        await c.end().catch(() => {});
      }
    } else {
      const c = new pg.Client({
        connectionString: url,
        application_name: 'poolbench-worker-version',
      });
      await c.connect();
      try {
        v = `PostgreSQL ${(await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v}`;
      } finally {
        await c.end().catch(() => {});
      }
    }
    cache.set(key, v);
    return v;
  } catch (err) {
    return `unknown (${(err as Error).message.split('\n')[0]})`;
  }
}

export type ComponentVersions = {
  /** the program that served the load: the runtime's own version line */
  labTarget: string;
  runtime: Runtime;
  database: string;
  /** nginx in front (balancing "nginx") or inside a PHP-FPM instance */
  nginx?: string;
};

/**
 * The versions of every component a managed run used, asked of the programs themselves: the lab
 * target on its runtime (Go, the JVM with HikariCP's target, Bun, PHP-FPM), nginx where it is in
 * the path, and the database server. What the run page and a comparison show as the run's
 * provenance; a Go version on a Java run was the lab target's binary, not what served the load.
 */
export async function componentVersions(opts: {
  runtime: Runtime;
  launcher: RuntimeLauncher;
  database: LabDatabase;
  databaseUrl: string;
  nginxBin?: string;
  nginxUsed: boolean;
}): Promise<ComponentVersions> {
  const serveAt = opts.launcher.prefix.lastIndexOf('serve');
  const versionArgs = [...opts.launcher.prefix.slice(0, serveAt), 'version'];
  const [labTarget, database, nginx] = await Promise.all([
    versionOf(opts.launcher.cmd, versionArgs),
    databaseVersion(opts.database, opts.databaseUrl),
    opts.nginxUsed || opts.runtime === 'php-fpm'
      ? versionOf(opts.nginxBin ?? 'nginx', ['-v'])
      : Promise.resolve(undefined),
  ]);
  return { labTarget, runtime: opts.runtime, database, ...(nginx ? { nginx } : {}) };
}
