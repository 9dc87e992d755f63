import { complementCidrs, formatCidr, formatIp, parseIp, type IpNum } from './ip-math';

/** One name (or IP literal) a run connects to, and the one address it was checked at. */
export interface PinnedHost {
  host: string;
  port: number;
  address: string;
}

/** Where every name k6 does not know is sent: inside the blocked ranges, so it fails at once. */
export const K6_SINKHOLE = '0.0.0.0';

const defaultPort = (u: URL) => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);
const bare = (h: string) => h.replace(/^\[|\]$/g, '');

/** The (host, port) pairs a list of URLs connects to. */
export function endpointsOf(urls: string[]): Array<{ host: string; port: number }> {
  const seen = new Map<string, { host: string; port: number }>();
  for (const raw of urls) {
    const u = new URL(raw);
    const host = bare(u.hostname).toLowerCase();
    seen.set(`${host} ${defaultPort(u)}`, { host, port: defaultPort(u) });
  }
  return [...seen.values()];
}

const hostPort = (address: string, port: number) =>
  address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;

/**
 * k6's `hosts` option for a run: each name:port the run uses → the address the worker checked,
 * so k6 never resolves a name itself (DNS rebinding changes nothing), and every other name → the
 * sinkhole. k6 looks up `name:port` before `name`, and a `*` entry would otherwise also catch
 * IP literals: IPv4 literals get their own entry; with an IPv6 literal (no valid k6 key) the
 * wildcard is left out and the IP blocklist alone keeps k6 on the checked addresses.
 * (k6 checks blockHostnames before hosts, so `--block-hostnames '*'` would block the target too.)
 */
export function k6HostsFor(pins: PinnedHost[]): Record<string, string> {
  const hosts: Record<string, string> = {};
  let ipv6Literal = false;
  for (const p of pins) {
    const lit = parseIp(p.host);
    if (lit?.v === 6) {
      ipv6Literal = true;
      continue;
    }
    hosts[`${p.host}:${p.port}`] = hostPort(p.address, p.port);
  }
  if (!ipv6Literal) hosts['*'] = K6_SINKHOLE;
  return hosts;
}

/**
 * k6 `--blacklist-ip`: every IPv4 and IPv6 address except exactly the run's checked addresses.
 * k6 talks to nothing but the target, so nothing else needs to be reachable: not a neighbour in
 * the same /8, not a redirect target, not a name that resolves somewhere new.
 */
export function k6BlacklistFor(addresses: string[]): string[] {
  const keep = addresses.map((a) => parseIp(a)).filter((a): a is IpNum => a !== null);
  return [...complementCidrs(keep, 4), ...complementCidrs(keep, 6)].map(formatCidr);
}

export const formatAddress = (a: string) => {
  const ip = parseIp(a);
  return ip ? formatIp(ip) : a;
};
