import { judgedIp, parseIp, type IpNum } from './ip-math';
import { specialLabel } from './special-ranges';
import { SERVICE_DEFAULTS } from '../service-defaults';

/** One service of the installation itself, as its environment names it. */
export interface OwnService {
  /** what a refusal calls it, e.g. "Redis (REDIS_URL)" */
  name: string;
  /** host name or IP literal, as configured */
  host: string;
  port: number;
}

/** An own service with the addresses its host resolved to (IPv4-in-IPv6 forms as IPv4). */
export interface LocatedService extends OwnService {
  addresses: IpNum[];
  /** it listens on this machine: loopback, all interfaces, or one of the machine's addresses */
  onThisHost: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_PORTS: Record<string, number> = {
  'postgres:': 5432,
  'postgresql:': 5432,
  'redis:': 6379,
  'rediss:': 6379,
  'mysql:': 3306,
  'mariadb:': 3306,
  'smtp:': 25,
  'smtps:': 465,
  'http:': 80,
  'https:': 443,
};

function fromUrl(name: string, raw: string | undefined): OwnService[] {
  if (!raw) return [];
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return [];
  }
  const port = u.port ? Number(u.port) : DEFAULT_PORTS[u.protocol];
  if (!port) return [];
  return [{ name, host: u.hostname.replace(/^\[|\]$/g, '').toLowerCase() || 'localhost', port }];
}

function fromPort(name: string, raw: string | undefined, fallback: number): OwnService[] {
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  // 0 turns a listener off (WORKER_HEALTH_PORT=0)
  return Number.isInteger(port) && port > 0 && port < 65536
    ? [{ name, host: '0.0.0.0', port }]
    : [];
}

/**
 * The installation's own services, from the same variables (and the same defaults) the web app,
 * the worker and infra/services.sh use. No team reaches any of them: not as a target, webhook,
 * metrics URL or monitor DSN, nor from a k6 script.
 */
export function ownServicesFromEnv(env: Env): OwnService[] {
  const list: OwnService[] = [
    ...fromUrl('Postgres (DATABASE_URL)', env.DATABASE_URL ?? SERVICE_DEFAULTS.DATABASE_URL),
    ...fromUrl('Redis (REDIS_URL)', env.REDIS_URL ?? SERVICE_DEFAULTS.REDIS_URL),
    ...fromUrl(
      'lab database (LAB_DATABASE_URL)',
      env.LAB_DATABASE_URL ?? SERVICE_DEFAULTS.LAB_DATABASE_URL,
    ),
    ...fromUrl(
      'lab MariaDB (LAB_MARIADB_URL)',
      env.LAB_MARIADB_URL ?? SERVICE_DEFAULTS.LAB_MARIADB_URL,
    ),
    ...fromUrl('SMTP server (SMTP_URL)', env.SMTP_URL),
    // infra/services.sh starts the mail catcher on loopback whatever SMTP_URL says
    ...fromPort(
      'mail catcher SMTP (MAILPIT_SMTP_PORT)',
      env.MAILPIT_SMTP_PORT,
      SERVICE_DEFAULTS.MAILPIT_SMTP_PORT,
    ),
    ...fromPort(
      'mail catcher API (MAILPIT_HTTP_PORT)',
      env.MAILPIT_HTTP_PORT,
      SERVICE_DEFAULTS.MAILPIT_HTTP_PORT,
    ),
    ...fromPort('web app (PORT)', env.PORT, SERVICE_DEFAULTS.PORT),
    ...fromUrl(
      'web app (BETTER_AUTH_URL)',
      env.BETTER_AUTH_URL ?? SERVICE_DEFAULTS.BETTER_AUTH_URL,
    ),
    ...fromUrl('web app (POOLBENCH_URL)', env.POOLBENCH_URL),
    ...fromPort(
      'worker ops port (WORKER_HEALTH_PORT)',
      env.WORKER_HEALTH_PORT,
      SERVICE_DEFAULTS.WORKER_HEALTH_PORT,
    ),
  ];
  const seen = new Set<string>();
  return list.filter((s) => {
    const key = `${s.host} ${s.port}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const same = (a: IpNum, b: IpNum) => a.v === b.v && a.n === b.n;

/**
 * Does a connection to this address land on this machine? Loopback (all of 127.0.0.0/8 and ::1),
 * 0.0.0.0/8 and `::` (Linux connects them to the local host), and the machine's own interface
 * addresses; IPv4-mapped, -compatible and NAT64 forms by the IPv4 address they carry.
 */
export function isThisHost(ip: IpNum, interfaces: readonly IpNum[]): boolean {
  const j = judgedIp(ip);
  const label = specialLabel(j);
  if (label === 'loopback' || label === 'this network' || label === 'unspecified') return true;
  return interfaces.some((i) => same(judgedIp(i), j));
}

/** Marks which services listen on this machine, given the addresses each host resolved to. */
export function locateServices(
  services: ReadonlyArray<OwnService & { addresses: readonly string[] }>,
  interfaces: readonly IpNum[],
): LocatedService[] {
  return services.map((s) => {
    const addresses = s.addresses.map((a) => parseIp(a)).filter((a): a is IpNum => a !== null);
    const onThisHost = s.host === 'localhost' || addresses.some((a) => isThisHost(a, interfaces));
    return {
      name: s.name,
      host: s.host,
      port: s.port,
      addresses: addresses.map(judgedIp),
      onThisHost,
    };
  });
}

/**
 * The own service a connection to `address`:`port` would reach, or null. Judged by the address
 * every spelling resolves to: the service's own addresses, and for a service on this machine any
 * address of this machine (127.0.0.2, ::1, ::ffff:127.0.0.1, 0.0.0.0, an interface address). A
 * different port of the same machine is not a service (the lab target's own port stays allowed).
 */
export function ownServiceAt(
  address: string,
  port: number,
  services: readonly LocatedService[],
  interfaces: readonly IpNum[],
): LocatedService | null {
  const ip = parseIp(address);
  if (!ip) return null;
  const j = judgedIp(ip);
  const here = isThisHost(j, interfaces);
  return (
    services.find(
      (s) => s.port === port && ((s.onThisHost && here) || s.addresses.some((a) => same(a, j))),
    ) ?? null
  );
}

/**
 * The own services listening at `address` on any port: for a destination that can be held to
 * its address but not to its port (a k6 run on an IPv6 literal).
 */
export function ownServicesAtAddress(
  address: string,
  services: readonly LocatedService[],
  interfaces: readonly IpNum[],
): LocatedService[] {
  const ip = parseIp(address);
  if (!ip) return [];
  const j = judgedIp(ip);
  const here = isThisHost(j, interfaces);
  return services.filter((s) => (s.onThisHost && here) || s.addresses.some((a) => same(a, j)));
}

/** The refusal's wording, the same at save time and at run time. */
export function ownServiceMessage(shown: string, service: OwnService): string {
  return `${shown} is the installation's own ${service.name}; PoolBench never sends load, probes, webhooks or monitor queries to its own services`;
}
