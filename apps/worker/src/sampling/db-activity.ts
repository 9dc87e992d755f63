import pg from 'pg';

export interface DbActivity {
  active: number;
  idle: number;
  idleInTx: number;
  total: number;
  /** sessions ever established in the database (pg_stat_database.sessions, PG 14+) */
  sessionsTotal: number | null;
}

/** Anything that reads the DB-side connection counts of a run (Postgres or MariaDB). */
export interface DbActivitySource {
  read(): Promise<DbActivity | null>;
  close(): Promise<void>;
}

/**
 * Connections as the database sees them. Filtered by application_name prefix when given (the
 * managed lab target tags each instance), else by the monitor DSN's user and database.
 */
export class DbActivityMonitor implements DbActivitySource {
  private client: pg.Client | null = null;
  constructor(
    /** a DSN, or a config whose host is the run's pinned address (URL targets) */
    private readonly dsn: string | pg.ClientConfig,
    private readonly appNamePrefix: string | null,
  ) {}

  async read(): Promise<DbActivity | null> {
    try {
      if (!this.client) {
        const c = new pg.Client({
          ...(typeof this.dsn === 'string' ? { connectionString: this.dsn } : this.dsn),
          application_name: 'poolbench-monitor',
          connectionTimeoutMillis: 2000,
          statement_timeout: 2000,
        });
        c.on('error', () => {
          this.client = null;
        });
        await c.connect();
        this.client = c;
      }
      // The lab target's readiness probe uses its own ':probe' connection: not part of any pool.
      const filter = this.appNamePrefix
        ? `application_name LIKE $1 || '%' AND application_name NOT LIKE '%:probe'`
        : `usename = current_user AND datname = current_database() AND pid <> pg_backend_pid()`;
      const params = this.appNamePrefix ? [this.appNamePrefix] : [];
      const { rows } = await this.client.query<{ state: string | null; n: string }>(
        `SELECT state, count(*)::text AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND ${filter} GROUP BY state`,
        params,
      );
      const sessions = await this.client.query<{ sessions: string | null }>(
        `SELECT sessions::text FROM pg_stat_database WHERE datname = current_database()`,
      );
      const by = (s: string) => Number(rows.find((r) => r.state === s)?.n ?? 0);
      const total = rows.reduce((n, r) => n + Number(r.n), 0);
      const sessionsTotal = sessions.rows[0]?.sessions ? Number(sessions.rows[0].sessions) : null;
      return {
        active: by('active'),
        idle: by('idle'),
        idleInTx: by('idle in transaction') + by('idle in transaction (aborted)'),
        total,
        sessionsTotal,
      };
    } catch {
      await this.close();
      return null;
    }
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
  }
}
