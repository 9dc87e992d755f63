import {
  cidrContains,
  embeddedIpv4Ranges,
  judgedIp,
  parseCidr,
  parseIp,
  type Cidr,
  type IpNum,
} from './ip-math';

/**
 * IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and updates), plus the cloud
 * metadata addresses. Load never goes to one of these unless the team allowed that exact range
 * by IP/CIDR; a host-name pattern never covers them, so DNS cannot point a permitted name inward.
 */
export const SPECIAL_RANGES: ReadonlyArray<{ cidr: string; label: string }> = [
  { cidr: '0.0.0.0/8', label: 'this network' },
  { cidr: '10.0.0.0/8', label: 'private' },
  { cidr: '100.64.0.0/10', label: 'shared address space (CGN)' },
  { cidr: '127.0.0.0/8', label: 'loopback' },
  { cidr: '169.254.0.0/16', label: 'link-local' },
  { cidr: '172.16.0.0/12', label: 'private' },
  { cidr: '192.0.0.0/24', label: 'IETF protocol assignments' },
  { cidr: '192.0.2.0/24', label: 'documentation' },
  { cidr: '192.31.196.0/24', label: 'AS112' },
  { cidr: '192.52.193.0/24', label: 'AMT' },
  { cidr: '192.88.99.0/24', label: '6to4 relay anycast' },
  { cidr: '192.168.0.0/16', label: 'private' },
  { cidr: '192.175.48.0/24', label: 'AS112' },
  { cidr: '198.18.0.0/15', label: 'benchmarking' },
  { cidr: '198.51.100.0/24', label: 'documentation' },
  { cidr: '203.0.113.0/24', label: 'documentation' },
  { cidr: '224.0.0.0/4', label: 'multicast' },
  { cidr: '240.0.0.0/4', label: 'reserved' },
  { cidr: '255.255.255.255/32', label: 'broadcast' },
  { cidr: '::/128', label: 'unspecified' },
  { cidr: '::1/128', label: 'loopback' },
  { cidr: '::/96', label: 'IPv4-compatible' },
  { cidr: '::ffff:0:0/96', label: 'IPv4-mapped' },
  { cidr: '64:ff9b::/96', label: 'NAT64' },
  { cidr: '64:ff9b:1::/48', label: 'local NAT64' },
  { cidr: '100::/64', label: 'discard-only' },
  { cidr: '2001::/23', label: 'IETF protocol assignments' },
  { cidr: '2001::/32', label: 'Teredo' },
  { cidr: '2001:db8::/32', label: 'documentation' },
  { cidr: '2002::/16', label: '6to4' },
  { cidr: '3fff::/20', label: 'documentation' },
  { cidr: '5f00::/16', label: 'SRv6 SIDs' },
  { cidr: 'fc00::/7', label: 'unique local' },
  { cidr: 'fe80::/10', label: 'link-local' },
  { cidr: 'fec0::/10', label: 'site-local (deprecated)' },
  { cidr: 'ff00::/8', label: 'multicast' },
];

/** Cloud instance metadata services: never allowed, whatever the allowlist says. */
export const METADATA_ADDRESSES: readonly string[] = [
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  'fd00:ec2::254',
];

const PARSED: Array<{ c: Cidr; label: string }> = SPECIAL_RANGES.map((r) => ({
  c: parseCidr(r.cidr)!,
  label: r.label,
}));

/**
 * The special-purpose label of an address, most specific range first, or null for a public
 * address. IPv4-mapped/compatible and NAT64 IPv6 forms are judged by the IPv4 address they carry
 * (::ffff:127.0.0.1 and 64:ff9b::7f00:1 are loopback).
 */
export function specialLabel(raw: string | IpNum): string | null {
  const parsed = typeof raw === 'string' ? parseIp(raw) : raw;
  if (!parsed) return null;
  const ip = judgedIp(parsed);
  let best: { c: Cidr; label: string } | null = null;
  for (const r of PARSED) if (cidrContains(r.c, ip) && (!best || r.c.len > best.c.len)) best = r;
  return best?.label ?? null;
}

export const isSpecial = (addr: string) => specialLabel(addr) !== null;

/**
 * Link-local ranges hold the metadata services: an allowlist may never include them, nor an IPv6
 * range whose IPv4-mapped, IPv4-compatible or NAT64 forms reach them (::ffff:a9fe:a9fe/128,
 * ::ffff:0:0/96, 64:ff9b::/96).
 */
export function touchesLinkLocalOrMetadata(c: Cidr): string | null {
  for (const v4 of embeddedIpv4Ranges(c)) {
    const why = touchesOwnFamily(v4);
    if (why) return `${why} (as IPv4 inside IPv6)`;
  }
  return touchesOwnFamily(c);
}

function touchesOwnFamily(c: Cidr): string | null {
  for (const cidr of ['169.254.0.0/16', 'fe80::/10']) {
    const ll = parseCidr(cidr)!;
    if (
      ll.v === c.v &&
      (cidrContains(ll, { v: c.v, n: c.n }) || cidrContains(c, { v: ll.v, n: ll.n }))
    )
      return `link-local ${cidr}`;
  }
  for (const a of METADATA_ADDRESSES) {
    const ip = parseIp(a)!;
    if (cidrContains(c, ip)) return `the cloud metadata address ${a}`;
  }
  return null;
}

/**
 * The kind of addresses a whole range holds: the special range it lies in, "public", or
 * "public and special-purpose (…)" when it spans both.
 */
export function rangeLabel(c: Cidr): string {
  const within = PARSED.filter(
    (r) => r.c.len <= c.len && cidrContains(r.c, { v: c.v, n: c.n }),
  ).sort((a, b) => b.c.len - a.c.len)[0];
  if (within) return within.label;
  const inside = [
    ...new Set(
      PARSED.filter((r) => r.c.len > c.len && cidrContains(c, { v: r.c.v, n: r.c.n })).map(
        (r) => r.label,
      ),
    ),
  ];
  if (inside.length === 0) return 'public';
  return `public and special-purpose (${inside.slice(0, 3).join(', ')}${inside.length > 3 ? ', …' : ''})`;
}
