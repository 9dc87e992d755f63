import type pg from 'pg';
import {
  canonicalIp,
  hasUrlCredentials,
  redactUrl,
  specialLabel,
  type PinnedHost,
} from '@poolbench/contracts/net';
import { RunError } from '../runs/run-error';
import { checkAllowed, refuseOwnServices, resolveHostNames } from './allowlist';

interface DsnParts {
  host: string;
  port: number;
  database: string;
}

function partsOf(dsn: string, what: string): DsnParts & { url: URL } {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    throw new RunError('target_not_allowed', `${what} is not a postgres:// URL`);
  }
  if (!/^postgres(ql)?:$/.test(url.protocol))
    throw new RunError('target_not_allowed', `${what} must be a postgres:// or postgresql:// URL`);
  // host=/socket/dir or hostaddr= in the query would bypass the host we check.
  for (const key of ['host', 'hostaddr', 'port', 'service']) {
    if (url.searchParams.has(key))
      throw new RunError(
        'target_not_allowed',
        `${what}: the "${key}" parameter is not allowed; put host and port in the URL itself`,
      );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase() || 'localhost';
  return {
    url,
    host,
    port: url.port ? Number(url.port) : 5432,
    database: decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username),
  };
}

const isLoopback = (addr: string) => specialLabel(addr) === 'loopback';
const ipKey = (a: string) => String(canonicalIp(a)?.n ?? a);

/**
 * A URL target's monitor DSN is an address the worker connects to like any other: resolved once,
 * checked against the team's allowlist, pinned. PoolBench's own database is refused outright
 * (same server address and port, or the same database name on loopback), so a team member cannot
 * point the worker's monitor at the database that holds every team's data.
 */
export async function checkMonitorDsn(
  dsn: string,
  opts: { patterns: string[]; opened: readonly string[]; ownDatabaseUrl: string },
): Promise<{ config: pg.ClientConfig; pin: PinnedHost }> {
  const m = partsOf(dsn, 'monitorDsn');
  const own = partsOf(opts.ownDatabaseUrl, 'DATABASE_URL');
  const [target] = await resolveHostNames([m.host]);
  const [ownHost] = await resolveHostNames([own.host]);
  if (!target || !ownHost) throw new RunError('target_unresolvable', `cannot resolve ${m.host}`);
  const ownAddrs = new Set(ownHost.addresses.map(ipKey));
  const sameAddr = target.addresses.some((a) => ownAddrs.has(ipKey(a)));
  const bothLoopback = target.addresses.some(isLoopback) && ownHost.addresses.some(isLoopback);
  if (m.port === own.port && (sameAddr || bothLoopback)) {
    throw new RunError(
      'target_not_allowed',
      `monitorDsn points at PoolBench's own database server (${m.host}:${m.port}); monitor the target's database instead`,
    );
  }
  if (m.database === own.database && (sameAddr || target.addresses.some(isLoopback))) {
    throw new RunError(
      'target_not_allowed',
      `monitorDsn points at PoolBench's own database "${m.database}"; monitor the target's database instead`,
    );
  }
  await refuseOwnServices([
    { field: 'monitorDsn', host: m.host, port: m.port, addresses: target.addresses },
  ]);
  checkAllowed([target], opts.patterns, { opened: opts.opened });
  const address = target.addresses[0]!;
  const sslmode = m.url.searchParams.get('sslmode');
  const ssl =
    !sslmode || sslmode === 'disable'
      ? false
      : {
          rejectUnauthorized: sslmode === 'verify-ca' || sslmode === 'verify-full',
          servername: canonicalIp(m.host) ? undefined : m.host,
        };
  return {
    pin: { host: m.host, port: m.port, address },
    // Connect to the pinned address; TLS still names (and verifies) the original host.
    config: {
      host: address,
      port: m.port,
      user: decodeURIComponent(m.url.username) || undefined,
      password: decodeURIComponent(m.url.password) || undefined,
      database: m.database || undefined,
      ssl,
    },
  };
}

/** For error messages about a DSN: never its password. */
export const redactDsn = (dsn: string) => (hasUrlCredentials(dsn) ? redactUrl(dsn) : dsn);
