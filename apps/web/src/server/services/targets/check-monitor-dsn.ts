import { lookup } from 'node:dns/promises';
import { openedRanges, type Db } from '@poolbench/db';
import { canonicalIp, specialLabel } from '@poolbench/contracts/net';
import { InvalidInputError } from '../errors';
import { hostAllowed, unopenedHostReason } from '../teams/host-allowed';
import { refuseOwnService } from './refuse-own-service';

interface DsnParts {
  host: string;
  port: number;
  database: string;
}

function partsOf(dsn: string): DsnParts {
  const url = new URL(dsn);
  for (const key of ['host', 'hostaddr', 'port', 'service']) {
    if (url.searchParams.has(key))
      throw new InvalidInputError(
        'monitorDsn',
        `the "${key}" parameter is not allowed; put host and port in the URL itself`,
      );
  }
  return {
    host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase() || 'localhost',
    port: url.port ? Number(url.port) : 5432,
    database: decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username),
  };
}

// Best effort at save time (the name may only resolve where the worker runs); the worker
// resolves, checks and pins again before it connects.
async function addressesOf(host: string): Promise<string[]> {
  if (canonicalIp(host)) return [String(canonicalIp(host)!.n)];
  try {
    return (await lookup(host, { all: true })).map((r) =>
      String(canonicalIp(r.address)?.n ?? r.address),
    );
  } catch {
    return [];
  }
}
const loopback = async (host: string) => {
  if (host === 'localhost') return true;
  const ip = canonicalIp(host);
  if (ip) return specialLabel(host) === 'loopback';
  try {
    return (await lookup(host, { all: true })).some((r) => specialLabel(r.address) === 'loopback');
  } catch {
    return false;
  }
};

/**
 * A monitor DSN is an address the worker connects to: its host must be on the team allowlist
 * like a base URL, and it may never be PoolBench's own database (same server address and port,
 * or the same database name on loopback).
 */
export async function checkMonitorDsn(
  db: Db,
  teamId: string,
  dsn: string,
  ownDatabaseUrl: string,
): Promise<void> {
  const m = partsOf(dsn);
  const own = partsOf(ownDatabaseUrl);
  const [mAddrs, ownAddrs] = await Promise.all([addressesOf(m.host), addressesOf(own.host)]);
  const sameAddr = m.host === own.host || mAddrs.some((a) => ownAddrs.includes(a));
  const [mLoop, ownLoop] = await Promise.all([loopback(m.host), loopback(own.host)]);
  if (m.port === own.port && (sameAddr || (mLoop && ownLoop))) {
    throw new InvalidInputError(
      'monitorDsn',
      `points at PoolBench's own database server (${m.host}:${m.port}); monitor the target's database instead`,
    );
  }
  if (m.database === own.database && (sameAddr || mLoop)) {
    throw new InvalidInputError(
      'monitorDsn',
      `points at PoolBench's own database "${m.database}"; monitor the target's database instead`,
    );
  }
  await refuseOwnService('monitorDsn', m.host, m.port);
  const [rows, opened] = await Promise.all([
    db.allowedHost.findMany({ where: { teamId }, select: { pattern: true } }),
    openedRanges(db),
  ]);
  if (
    !hostAllowed(
      m.host,
      rows.map((r) => r.pattern),
    )
  ) {
    throw new InvalidInputError(
      'monitorDsn',
      `${m.host} is not on the team allowlist. An admin can add it under Settings → Allowlist.`,
    );
  }
  const unopened = unopenedHostReason([m.host], opened);
  if (unopened) throw new InvalidInputError('monitorDsn', unopened);
}
