import mysql from 'mysql2/promise';
import type { DbActivity, DbActivitySource } from './db-activity';
import { mysqlOptions } from '../targets/mariadb-user';

/**
 * Connections as MariaDB sees them: the run user's sessions in information_schema.PROCESSLIST
 * ('Sleep' = idle, anything else = active), and the server's Connections counter (every session
 * ever established, like pg_stat_database.sessions).
 */
export class MariaDbActivityMonitor implements DbActivitySource {
  private conn: mysql.Connection | null = null;
  constructor(
    private readonly adminUrl: string,
    private readonly user: string,
  ) {}

  async read(): Promise<DbActivity | null> {
    try {
      if (!this.conn) {
        const c = await mysql.createConnection(mysqlOptions(this.adminUrl));
        c.on('error', () => {
          this.conn = null;
        });
        this.conn = c;
      }
      const [rows] = await this.conn.query<mysql.RowDataPacket[]>(
        "SELECT SUM(COMMAND = 'Sleep') AS idle, SUM(COMMAND <> 'Sleep') AS active, COUNT(*) AS total FROM information_schema.PROCESSLIST WHERE USER = ?",
        [this.user],
      );
      const [status] = await this.conn.query<mysql.RowDataPacket[]>(
        "SHOW GLOBAL STATUS LIKE 'Connections'",
      );
      const r = rows[0];
      return {
        active: Number(r?.active ?? 0),
        idle: Number(r?.idle ?? 0),
        idleInTx: 0,
        total: Number(r?.total ?? 0),
        sessionsTotal: status[0] ? Number(status[0].Value) : null,
      };
    } catch {
      await this.close();
      return null;
    }
  }

  async close(): Promise<void> {
    const c = this.conn;
    this.conn = null;
    await c?.end().catch(() => {});
  }
}
