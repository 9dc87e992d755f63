// PoolBench lab target on Bun: the lab-target HTTP contract (docs/runtimes.md) served by Bun.serve
// with Bun's own SQL client pool (Bun.sql) on Postgres or MariaDB. Seed 001's Bun variant: the
// whole result is read, then JSON.stringify'd, as the write-up's service did.
//   bun server.ts serve --strategy=lazy --listen=127.0.0.1:0 --database-url=mysql://… [--max-conns=10 …]
import { SQL } from 'bun';
import { Metrics } from './metrics';
import { parseServeFlags, UsageError, type BunConfig } from './flags';
import { bearerUser, MESSAGES, parseLogin, samePassword, token } from './auth';

type Dialect = 'postgres' | 'mysql';
type Conn = SQL & { release?: () => void };

const started = Date.now();

function main(): void {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === 'version') {
    console.log(`lab-target-bun (bun ${Bun.version})`);
    return;
  }
  if (cmd !== 'serve') {
    console.error(
      `lab-target-bun: unknown command ${cmd ?? '(none)'}; usage: lab-target-bun serve --database-url=… [flags]`,
    );
    process.exit(2);
  }
  let cfg: BunConfig;
  try {
    cfg = parseServeFlags(rest, process.env);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`lab-target-bun serve: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  serve(cfg);
}

function dialectOf(url: string): Dialect {
  return /^(mysql|mariadb):/.test(url) ? 'mysql' : 'postgres';
}

function sqlOptions(
  cfg: BunConfig,
  dialect: Dialect,
  pool: string,
  m: Metrics,
  max: number,
  idleTimeoutS: number,
) {
  const url = cfg.databaseUrl.replace(/^mariadb:/, 'mysql:').replace(/^postgresql:/, 'postgres:');
  return {
    url,
    max,
    idleTimeout: idleTimeoutS,
    maxLifetime: cfg.maxLifetimeMs / 1000,
    connectionTimeout: cfg.connectTimeoutMs / 1000,
    ...(dialect === 'postgres'
      ? {
          connection: {
            application_name: `${cfg.applicationName}:${pool}`,
            ...(cfg.statementTimeoutMs > 0
              ? { statement_timeout: String(cfg.statementTimeoutMs) }
              : {}),
          },
        }
      : {}),
    onconnect: (err: Error | null) => {
      if (!err) m.connOpened(pool);
    },
    onclose: () => m.connClosed(pool),
  };
}

const tables = (d: Dialect) =>
  d === 'postgres'
    ? {
        wide: 'lab.wide_rows',
        roles: 'lab.roles',
        rp: 'lab.role_permissions',
        perms: 'lab.permissions',
        counters: 'lab.counters',
        users: 'lab.users',
      }
    : {
        wide: 'wide_rows',
        roles: 'roles',
        rp: 'role_permissions',
        perms: 'permissions',
        counters: 'counters',
        users: 'users',
      };

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Maps a driver error to the lab target's error answers (same codes as the Go target). */
function dbError(err: unknown, dialect: Dialect, m: Metrics): HttpError {
  if (err instanceof HttpError) return err;
  const e = err as { code?: string; errno?: number; message?: string };
  const msg = String(e.message ?? err);
  // Bun's SQL errors: Postgres carries the SQLSTATE in `errno`/`code`, MySQL the numeric errno.
  const state =
    dialect === 'postgres' ? String((e as { errno?: string }).errno ?? '') : String(e.errno ?? '');
  const label = state && state !== 'undefined' ? state : 'none';
  m.dbError(label);
  // 1226: a MariaDB user's MAX_USER_CONNECTIONS (the per-run user's connection limit)
  if (
    state === '53300' ||
    state === '1040' ||
    state === '1203' ||
    state === '1226' ||
    /too many (clients|connections)/i.test(msg)
  ) {
    m.tooManyClients();
    return new HttpError(503, 'db_too_many_clients', msg);
  }
  if (state === '42P01' || state === '1146')
    return new HttpError(503, 'lab_schema_missing', 'lab tables missing: run lab-target setup');
  if (state === '57014' || state === '1969') return new HttpError(504, 'statement_timeout', msg);
  if (state === '42703' || state === '1054')
    return new HttpError(
      400,
      'too_many_fields',
      "fields exceeds the lab table's fields (see lab-target setup --fields)",
    );
  if (
    /ECONNREFUSED|connection.*(refused|closed|timeout)|timed out/i.test(msg) ||
    e.code === 'ERR_POSTGRES_CONNECTION_TIMEOUT' ||
    e.code === 'ERR_MYSQL_CONNECTION_TIMEOUT'
  )
    return new HttpError(503, 'db_unavailable', msg);
  return new HttpError(500, 'db_error', msg, { sqlstate: label });
}

function serve(cfg: BunConfig): void {
  const dialect = dialectOf(cfg.databaseUrl);
  const t = tables(dialect);
  const m = new Metrics();
  const pool = 'main';
  const maxConns = cfg.strategy === 'per-request' ? 1 : cfg.maxConns;
  m.setMax(pool, cfg.strategy === 'per-request' ? 0 : maxConns);
  // fixed and prewarm keep their connections: Bun.sql's idleTimeout 0 means never close for idleness.
  const idleS = cfg.strategy === 'lazy' ? cfg.idleTimeoutMs / 1000 : 0;
  const shared: SQL | null =
    cfg.strategy === 'per-request'
      ? null
      : new SQL(sqlOptions(cfg, dialect, pool, m, maxConns, idleS));
  let ready = false;
  let reason = 'starting';
  let stopping = false;

  /** A connection for one request: the shared pool's, reserved (timed, bounded by --acquire-timeout), or a fresh client (per-request). */
  async function lease(signal: AbortSignal): Promise<{ conn: Conn; release: () => Promise<void> }> {
    const t0 = performance.now();
    m.waiting(pool, +1);
    try {
      if (!shared) {
        const c = new SQL(sqlOptions(cfg, dialect, pool, m, 1, 0));
        try {
          await c`SELECT 1`;
        } catch (err) {
          await c.close().catch(() => {});
          throw err;
        }
        m.acquired(pool, +1, (performance.now() - t0) / 1000, false);
        return {
          conn: c as Conn,
          release: async () => {
            m.acquired(pool, -1);
            await c.close().catch(() => {});
          },
        };
      }
      const busy = m.inUse(pool) >= maxConns;
      const reservation = shared.reserve();
      const limit = cfg.acquireTimeoutMs > 0 ? cfg.acquireTimeoutMs : cfg.requestTimeoutMs;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), limit);
        signal.addEventListener('abort', () => resolve('timeout'), { once: true });
      });
      const got = await Promise.race([reservation, timeout]);
      clearTimeout(timer);
      if (got === 'timeout') {
        // The reservation may still succeed later: hand it straight back.
        reservation.then(
          (c) => c.release(),
          () => {},
        );
        const waited = Math.round(performance.now() - t0);
        m.acquireTimeout(pool);
        throw new HttpError(503, 'pool_acquire_timeout', `no connection within ${limit} ms`, {
          pool,
          waitedMs: waited,
        });
      }
      const c = got as unknown as Conn;
      m.acquired(pool, +1, (performance.now() - t0) / 1000, busy);
      return {
        conn: c,
        release: async () => {
          m.acquired(pool, -1);
          c.release?.();
        },
      };
    } finally {
      m.waiting(pool, -1);
    }
  }

  async function withConn<T>(signal: AbortSignal, f: (c: Conn) => Promise<T>): Promise<T> {
    const l = await lease(signal);
    try {
      return await f(l.conn);
    } catch (err) {
      throw dbError(err, dialect, m);
    } finally {
      await l.release();
    }
  }

  function intParam(u: URL, name: string, def: number, min: number, max: number): number | null {
    const raw = u.searchParams.get(name);
    if (raw === null || raw === '') return def;
    if (!/^-?\d+$/.test(raw)) return null;
    const n = Number(raw);
    return n < min || n > max ? null : n;
  }

  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', 'X-Instance-Id': cfg.instanceId, ...headers },
    });
  const errorResponse = (e: HttpError) =>
    json(e.status, { error: e.code, message: e.message, ...e.extra });

  async function probe(): Promise<void> {
    // Its own short-lived connection, never a pool connection, so a lazy pool shows none before traffic.
    const c = new SQL({
      ...sqlOptions(cfg, dialect, 'probe', new Metrics(), 1, 0),
      onconnect: undefined,
      onclose: undefined,
    });
    try {
      await c`SELECT 1`;
    } finally {
      await c.close().catch(() => {});
    }
  }

  async function startUp(): Promise<void> {
    for (;;) {
      if (stopping) return;
      try {
        await probe();
        if (cfg.strategy === 'prewarm' && shared) {
          // Open every connection before ready: reserve max at once, ping each, hand them back.
          const held = await Promise.all(Array.from({ length: maxConns }, () => shared.reserve()));
          await Promise.all(held.map((c) => c`SELECT 1`));
          held.forEach((c) => c.release());
          if (cfg.keepaliveMs > 0)
            setInterval(() => void shared`SELECT 1`.catch(() => {}), cfg.keepaliveMs).unref();
        }
        ready = true;
        reason = '';
        m.setReady(true);
        return;
      } catch (err) {
        reason = `database unreachable: ${String((err as Error).message ?? err)}`;
        await Bun.sleep(500);
      }
    }
  }

  async function route(req: Request, u: URL): Promise<Response> {
    const signal = req.signal;
    switch (`${req.method} ${u.pathname}`) {
      case 'GET /ready':
        return ready
          ? json(200, {
              ready: true,
              instanceId: cfg.instanceId,
              strategy: cfg.strategy,
              runtime: 'bun',
              pools: [pool],
              uptimeMs: Date.now() - started,
            })
          : json(503, { ready: false, reason });
      case 'GET /metrics':
        return new Response(m.render(), {
          headers: { 'Content-Type': 'text/plain; version=0.0.4' },
        });
      case 'GET /health':
        await withConn(signal, (c) => c`SELECT 1`);
        return json(200, { status: 'ok', pool, instanceId: cfg.instanceId }, { 'X-Pool': pool });
      case 'GET /roles': {
        const rows = await withConn(signal, (c) =>
          c.unsafe(
            `SELECT r.id AS rid, r.name AS rname, r.description AS rdesc, p.id AS pid, p.name AS pname, p.resource AS pres, p.action AS pact FROM ${t.roles} r LEFT JOIN ${t.rp} rp ON rp.role_id = r.id LEFT JOIN ${t.perms} p ON p.id = rp.permission_id ORDER BY r.id, p.id`,
          ),
        );
        const out: Array<{
          id: number;
          name: string;
          description: string;
          permissions: Array<{ id: number; name: string; resource: string; action: string }>;
        }> = [];
        for (const r of rows as Array<Record<string, unknown>>) {
          const id = Number(r.rid);
          if (out.length === 0 || out[out.length - 1]!.id !== id)
            out.push({ id, name: String(r.rname), description: String(r.rdesc), permissions: [] });
          if (r.pid !== null && r.pid !== undefined)
            out[out.length - 1]!.permissions.push({
              id: Number(r.pid),
              name: String(r.pname),
              resource: String(r.pres),
              action: String(r.pact),
            });
        }
        return json(200, out, { 'X-Pool': pool });
      }
      case 'GET /query': {
        const rows = intParam(u, 'rows', 100, 0, cfg.maxRows);
        if (rows === null)
          throw new HttpError(400, 'bad_rows', 'rows must be an integer in [0, --max-rows]');
        const fields = intParam(u, 'fields', 10, 0, 1000);
        if (fields === null)
          throw new HttpError(400, 'bad_fields', 'fields must be an integer in [0, 1000]');
        const cols = ['id', ...Array.from({ length: fields }, (_, i) => `f${i + 1}`)].join(', ');
        const ph = dialect === 'postgres' ? '$1' : '?';
        const result = await withConn(signal, (c) =>
          c.unsafe(`SELECT ${cols} FROM ${t.wide} ORDER BY id LIMIT ${ph}`, [rows]),
        );
        // bigint columns arrive as strings from some drivers; the contract's JSON has numbers for ids.
        return new Response(JSON.stringify(Array.from(result as Iterable<unknown>)), {
          headers: {
            'Content-Type': 'application/json',
            'X-Instance-Id': cfg.instanceId,
            'X-Pool': pool,
          },
        });
      }
      case 'GET /work':
      case 'POST /work': {
        const ms = intParam(u, 'ms', 100, 0, cfg.maxWorkMs);
        if (ms === null)
          throw new HttpError(400, 'bad_ms', 'ms must be an integer in [0, --max-work]');
        const write = req.method === 'POST' || u.searchParams.get('write') === '1';
        await withConn(signal, async (c) => {
          const sleep =
            dialect === 'postgres' ? `SELECT pg_sleep(${ms / 1000})` : `SELECT SLEEP(${ms / 1000})`;
          if (!write) {
            await c.unsafe(sleep);
            return;
          }
          const id = 1 + Math.floor(Math.random() * 1000);
          await c.unsafe('BEGIN');
          try {
            await c.unsafe(sleep);
            await c.unsafe(
              dialect === 'postgres'
                ? `UPDATE ${t.counters} SET hits = hits + 1, touched_at = now() WHERE id = $1`
                : `UPDATE ${t.counters} SET hits = hits + 1, touched_at = now() WHERE id = ?`,
              [id],
            );
            await c.unsafe('COMMIT');
          } catch (err) {
            await c.unsafe('ROLLBACK').catch(() => {});
            throw err;
          }
        });
        return json(200, { ms, write, pool, instanceId: cfg.instanceId }, { 'X-Pool': pool });
      }
      case 'POST /login': {
        // One query on a pool connection, held for that query only.
        const creds = parseLogin(new Uint8Array(await req.arrayBuffer()));
        if (!creds) throw new HttpError(400, 'bad_login', MESSAGES.badLogin);
        const ph = dialect === 'postgres' ? '$1' : '?';
        const rows = (await withConn(signal, (c) =>
          c.unsafe(`SELECT id, password FROM ${t.users} WHERE username = ${ph}`, [creds.username]),
        )) as Array<{ id: number | string; password: string }>;
        const user = rows[0];
        if (!user || !samePassword(String(user.password), creds.password))
          throw new HttpError(401, 'bad_credentials', MESSAGES.badCredentials);
        const id = Number(user.id);
        return json(200, { token: token(id), userId: id }, { 'X-Pool': pool });
      }
      case 'GET /me': {
        // The token is verified without the database; then its user is read through the pool.
        const id = bearerUser(req.headers.get('authorization'));
        if (id === null) throw new HttpError(401, 'unauthorized', MESSAGES.unauthorized);
        const ph = dialect === 'postgres' ? '$1' : '?';
        const rows = (await withConn(signal, (c) =>
          c.unsafe(`SELECT username FROM ${t.users} WHERE id = ${ph}`, [id]),
        )) as Array<{ username: string }>;
        if (!rows[0]) throw new HttpError(404, 'user_not_found', MESSAGES.userNotFound);
        return json(200, { id, username: String(rows[0].username) }, { 'X-Pool': pool });
      }
      case 'POST /upload':
        throw new HttpError(501, 'not_supported', 'the bun runtime has no /upload');
      default:
        throw new HttpError(404, 'not_found', `no route ${req.method} ${u.pathname}`);
    }
  }

  const server = Bun.serve({
    hostname: cfg.host,
    port: cfg.port,
    idleTimeout: 255,
    async fetch(req) {
      const u = new URL(req.url);
      const t0 = performance.now();
      let res: Response;
      try {
        res = await route(req, u);
      } catch (err) {
        res = errorResponse(err instanceof HttpError ? err : dbError(err, dialect, m));
      }
      if (u.pathname !== '/metrics')
        m.httpRequest(
          u.pathname,
          req.signal.aborted ? 499 : res.status,
          (performance.now() - t0) / 1000,
        );
      return res;
    },
  });
  console.log(
    `listening http://${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host}:${server.port}`,
  );
  void startUp();

  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    const deadline = setTimeout(() => process.exit(0), cfg.shutdownTimeoutMs);
    await server.stop(false);
    await shared?.close({ timeout: 1 }).catch(() => {});
    clearTimeout(deadline);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main();
