import type { Redis } from 'ioredis';

/** The part of a pino logger we need; structured JSON lines. */
export interface StateLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Logs a dependency's state changes once each instead of every failure: an outage of Redis for
 * 10 s used to print ~200 stack traces (every retry of every connection); now it prints one
 * "lost" line per dependency with the first error, and one "regained" line with the downtime.
 */
export function createStateLog(log: StateLogger) {
  const down = new Map<string, { since: number; failures: number }>();
  return {
    failed(what: string, err: unknown): void {
      const d = down.get(what);
      if (d) {
        d.failures++;
        return;
      }
      down.set(what, { since: Date.now(), failures: 1 });
      log.warn(
        { dependency: what, state: 'lost', err: err instanceof Error ? err.message : String(err) },
        `${what}: connection lost`,
      );
    },
    ok(what: string): void {
      const d = down.get(what);
      if (!d) return;
      down.delete(what);
      log.info(
        { dependency: what, state: 'regained', downMs: Date.now() - d.since, failures: d.failures },
        `${what}: connection regained`,
      );
    },
  };
}
export type StateLog = ReturnType<typeof createStateLog>;

/**
 * Follows several ioredis connections to one server as one dependency: "lost" on the first error
 * of any of them, "regained" once every one is ready again. Returns a check for "all ready".
 */
export function watchConnections(state: StateLog, what: string) {
  const conns: Redis[] = [];
  const allReady = () => conns.every((c) => c.status === 'ready');
  return {
    add(conn: Redis): Redis {
      conns.push(conn);
      conn.on('error', (err: Error) => state.failed(what, err));
      conn.on('ready', () => {
        if (allReady()) state.ok(what);
      });
      return conn;
    },
    allReady,
    connections: () => [...conns],
  };
}
