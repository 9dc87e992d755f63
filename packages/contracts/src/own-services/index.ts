import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import {
  formatIp,
  locateServices,
  ownServiceAt,
  ownServiceMessage,
  ownServicesFromEnv,
  parseIp,
  type IpNum,
  type LocatedService,
} from '../net';

// Node only (DNS, the machine's interfaces): the web app's server and the worker import this; the
// browser imports the pure judgement from ../net.

const LOOKUP_TIMEOUT_MS = 2000;
/** How long `ownServices` keeps a resolution before it resolves the hosts again. */
export const OWN_SERVICES_KEEP_MS = 10_000;

async function addressesOf(host: string): Promise<string[]> {
  if (parseIp(host)) return [host];
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      lookup(host, { all: true }).then(
        (rs) => rs.map((r) => r.address),
        () => [],
      ),
      new Promise<string[]>((r) => {
        timer = setTimeout(() => r([]), LOOKUP_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every address of this machine's network interfaces (loopback included). */
export function interfaceAddresses(): IpNum[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((i) => parseIp(i.address.replace(/%.*$/, '')))
    .filter((a): a is IpNum => a !== null);
}

export interface OwnServices {
  services: LocatedService[];
  interfaces: IpNum[];
}

let kept: { key: string; at: number; value: Promise<OwnServices> } | null = null;

/**
 * The installation's own services (`ownServicesFromEnv`), their hosts resolved and the machine's
 * interface addresses read; kept `OWN_SERVICES_KEEP_MS` per environment, by the clock `now`.
 */
export function ownServices(
  env: NodeJS.ProcessEnv = process.env,
  now: () => number = Date.now,
): Promise<OwnServices> {
  const list = ownServicesFromEnv(env);
  const key = JSON.stringify(list);
  const at = now();
  if (kept && kept.key === key && at - kept.at < OWN_SERVICES_KEEP_MS) return kept.value;
  const value = (async () => {
    const interfaces = interfaceAddresses();
    const resolved = await Promise.all(
      list.map(async (s) => ({ ...s, addresses: await addressesOf(s.host) })),
    );
    return { services: locateServices(resolved, interfaces), interfaces };
  })();
  kept = { key, at, value };
  return value;
}

/**
 * The refusal for a destination (`host`:`port`, resolved to `addresses`) that is one of the
 * installation's own services, or null. `host` is what the message shows.
 */
export async function ownServiceRefusal(
  host: string,
  port: number,
  addresses: readonly string[],
  env?: NodeJS.ProcessEnv,
): Promise<string | null> {
  const { services, interfaces } = await ownServices(env);
  for (const address of addresses) {
    const hit = ownServiceAt(address, port, services, interfaces);
    if (!hit) continue;
    const ip = parseIp(address);
    const shownAddr = ip ? formatIp(ip) : address;
    const hostPort = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const shown = host === address || host === shownAddr ? hostPort : `${hostPort} (${shownAddr})`;
    return ownServiceMessage(shown, hit);
  }
  return null;
}

/** Resolves a host name (2 s at most; an IP literal stands for itself) for a save-time check. */
export const resolveForCheck = addressesOf;
