import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { RunError } from '../runs/run-error';

/**
 * Special-purpose address ranges (RFC 6890 and friends). Load never goes there unless a run's own
 * target resolves into one and the team allowed it; k6 gets the rest as --blacklist-ip so a
 * redirect or a DNS change mid-run cannot turn load towards them.
 */
export const SPECIAL_RANGES: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
];

export interface ResolvedHost {
  host: string;
  addresses: string[];
}

const family = (addr: string): 'ipv4' | 'ipv6' => (isIP(addr) === 6 ? 'ipv6' : 'ipv4');
const stripBrackets = (h: string) => h.replace(/^\[|\]$/g, '');

function ipPatterns(patterns: string[]): BlockList {
  const list = new BlockList();
  for (const p of patterns) {
    const [addr, bits] = p.split('/');
    if (!addr || isIP(addr) === 0) continue;
    if (bits === undefined) list.addAddress(addr, family(addr));
    else list.addSubnet(addr, Number(bits), family(addr));
  }
  return list;
}

function hostMatches(host: string, patterns: string[]): boolean {
  const h = host.toLowerCase();
  return patterns.some((p) => {
    const q = p.toLowerCase();
    if (isIP(q.split('/')[0] ?? '') !== 0) return false;
    return q.startsWith('*.') ? h.endsWith(q.slice(1)) && h.length > q.length - 1 : h === q;
  });
}

export async function resolveHosts(baseUrls: string[]): Promise<ResolvedHost[]> {
  const hosts = [...new Set(baseUrls.map((u) => stripBrackets(new URL(u).hostname)))];
  return Promise.all(
    hosts.map(async (host) => {
      if (isIP(host)) return { host, addresses: [host] };
      try {
        const res = await lookup(host, { all: true });
        return { host, addresses: res.map((r) => r.address) };
      } catch (err) {
        throw new RunError('target_unresolvable', `cannot resolve ${host}: ${(err as Error).message}`);
      }
    }),
  );
}

/**
 * A host is allowed when every address it resolves to is allowed: an address is allowed when it
 * matches an IP/CIDR pattern, or when the host name matches a name pattern and the address is
 * not special-purpose (so a public name cannot be pointed at internal ranges by DNS).
 */
export function checkAllowed(resolved: ResolvedHost[], patterns: string[], opts: { allowLoopback?: boolean } = {}): void {
  const allowedIps = ipPatterns(patterns);
  const special = specialList();
  const loopback = new BlockList();
  loopback.addSubnet('127.0.0.0', 8, 'ipv4');
  loopback.addAddress('::1', 'ipv6');
  for (const r of resolved) {
    const nameOk = hostMatches(r.host, patterns);
    for (const addr of r.addresses) {
      const fam = family(addr);
      if (opts.allowLoopback && loopback.check(addr, fam)) continue;
      if (allowedIps.check(addr, fam)) continue;
      if (nameOk && !special.check(addr, fam)) continue;
      throw new RunError(
        'target_not_allowed',
        `load to ${r.host} (${addr}) is not allowed for this team; an admin can add ${nameOk ? addr : r.host} to the team's allowed hosts`,
      );
    }
  }
}

function specialList(): BlockList {
  const l = new BlockList();
  for (const [a, b, f] of SPECIAL_RANGES) l.addSubnet(a, b, f);
  return l;
}

/** Special-purpose ranges that contain none of the run's own addresses, for k6 --blacklist-ip. */
export function blacklistFor(addresses: string[]): string[] {
  return SPECIAL_RANGES.filter(([a, b, f]) => {
    const l = new BlockList();
    l.addSubnet(a, b, f);
    return !addresses.some((addr) => family(addr) === f && l.check(addr, f));
  }).map(([a, b]) => `${a}/${b}`);
}
