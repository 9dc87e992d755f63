// Pure TS (no node:net): the web app's forms use these in the browser too.
const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** 4, 6 or 0, like node:net isIP (zone ids are not accepted). */
export function isIP(s: string): 0 | 4 | 6 {
  if (V4.test(s)) return 4;
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(':')) return 0;
  const parts = s.split('::');
  if (parts.length > 2) return 0;
  const groups = (x: string) => (x === '' ? [] : x.split(':'));
  const all = [...groups(parts[0]!), ...(parts.length === 2 ? groups(parts[1]!) : [])];
  let count = 0;
  for (let i = 0; i < all.length; i++) {
    const g = all[i]!;
    if (i === all.length - 1 && g.includes('.')) {
      if (!V4.test(g)) return 0;
      count += 2;
    } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) count += 1;
    else return 0;
  }
  return (parts.length === 2 ? count < 8 : count === 8) ? 6 : 0;
}

/** An IP address as a number, so ranges can be compared and split exactly. */
export interface IpNum {
  v: 4 | 6;
  n: bigint;
}

export const bitsOf = (v: 4 | 6) => (v === 4 ? 32 : 128);

function parseV4(s: string): bigint {
  return s.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function parseV6(s: string): bigint {
  let text = s.toLowerCase().replace(/%.*$/, '');
  // A trailing dotted quad (::ffff:1.2.3.4) is two 16-bit groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const q = parseV4(quad[1]!);
    text = `${text.slice(0, -quad[1]!.length)}${(q >> 16n).toString(16)}:${(q & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

/** Parses an IPv4 or IPv6 literal (brackets allowed); null when it is not one. */
export function parseIp(raw: string): IpNum | null {
  const s = raw.replace(/^\[|\]$/g, '');
  const v = isIP(s);
  if (v === 4) return { v: 4, n: parseV4(s) };
  if (v === 6) return { v: 6, n: parseV6(s) };
  return null;
}

export function formatIp(ip: IpNum): string {
  if (ip.v === 4) return [24n, 16n, 8n, 0n].map((sh) => String((ip.n >> sh) & 0xffn)).join('.');
  const groups = [...Array(8).keys()].map((i) =>
    ((ip.n >> BigInt((7 - i) * 16)) & 0xffffn).toString(16),
  );
  // Compress the longest run of zero groups (RFC 5952).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

export interface Cidr {
  v: 4 | 6;
  /** network address (host bits zero) */
  n: bigint;
  len: number;
}

export function parseCidr(raw: string): Cidr | null {
  const [addr, bits, extra] = raw.split('/');
  if (extra !== undefined || !addr) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  const len = bits === undefined ? bitsOf(ip.v) : Number(bits);
  if (!/^\d+$/.test(bits ?? '0') || len < 0 || len > bitsOf(ip.v)) return null;
  const host = bitsOf(ip.v) - len;
  return { v: ip.v, n: (ip.n >> BigInt(host)) << BigInt(host), len };
}

export function cidrContains(c: Cidr, ip: IpNum): boolean {
  if (c.v !== ip.v) return false;
  const host = BigInt(bitsOf(c.v) - c.len);
  return ip.n >> host === c.n >> host;
}

export const formatCidr = (c: Cidr) => `${formatIp({ v: c.v, n: c.n })}/${c.len}`;

/** How many addresses a range holds (2^host bits). */
export const cidrSize = (c: Cidr): bigint => 1n << BigInt(bitsOf(c.v) - c.len);

/**
 * The smallest list of CIDRs that covers every address of family `v` except exactly `keep`
 * (e.g. keep 127.0.0.1 → 0.0.0.0/2 … 127.0.0.0/32, 127.0.0.2/31, 127.0.0.4/30 …). At most
 * bits × |keep| ranges.
 */
export function complementCidrs(keep: IpNum[], v: 4 | 6): Cidr[] {
  const bits = bitsOf(v);
  const kept = [...new Set(keep.filter((k) => k.v === v).map((k) => k.n))];
  const out: Cidr[] = [];
  const walk = (n: bigint, len: number, inside: bigint[]) => {
    if (inside.length === 0) {
      out.push({ v, n, len });
      return;
    }
    if (len === bits) return;
    const half = 1n << BigInt(bits - len - 1);
    const hi = n + half;
    walk(
      n,
      len + 1,
      inside.filter((k) => k < hi),
    );
    walk(
      hi,
      len + 1,
      inside.filter((k) => k >= hi),
    );
  };
  walk(0n, 0, kept);
  return out;
}

/** ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated) carry an IPv4 address. */
export function embeddedIpv4(ip: IpNum): IpNum | null {
  if (ip.v !== 6) return null;
  if (ip.n >> 32n === 0xffffn) return { v: 4, n: ip.n & 0xffffffffn };
  // ::/128 and ::1 are not compatible addresses; everything else in ::/96 is.
  if (ip.n >> 32n === 0n && ip.n > 1n) return { v: 4, n: ip.n };
  return null;
}

/**
 * NAT64 prefixes (RFC 6052 well-known 64:ff9b::/96, RFC 8215 local-use 64:ff9b:1::/48): a
 * translator turns an address there into the IPv4 address in its last 32 bits (the /96 layout).
 */
const NAT64_PREFIXES: Cidr[] = [
  { v: 6, n: 0x64ff9bn << 96n, len: 96 },
  { v: 6, n: 0x64ff9b0001n << 80n, len: 48 },
];

/** The IPv4 address a NAT64 address is translated to, or null outside the NAT64 prefixes. */
export function translatedIpv4(ip: IpNum): IpNum | null {
  if (ip.v !== 6 || !NAT64_PREFIXES.some((p) => cidrContains(p, ip))) return null;
  return { v: 4, n: ip.n & 0xffffffffn };
}

/**
 * The address a check judges: IPv4-mapped, IPv4-compatible and NAT64 forms by the IPv4 address
 * they carry or are translated to (a connection to one of them ends up there), anything else as
 * it is. Unlike `canonicalIp`, a NAT64 address is not what to connect to: the translator is.
 */
export function judgedIp(ip: IpNum): IpNum {
  return embeddedIpv4(ip) ?? translatedIpv4(ip) ?? ip;
}

/** The IPv4-in-IPv6 prefixes: mapped, compatible, NAT64 well-known and local-use. */
const IPV4_CARRYING_PREFIXES: Cidr[] = [
  { v: 6, n: 0xffffn << 32n, len: 96 },
  { v: 6, n: 0n, len: 96 },
  ...NAT64_PREFIXES,
];

/**
 * The IPv4 ranges an IPv6 range reaches through the IPv4-carrying forms it holds: ::ffff:0:0/96
 * reaches 0.0.0.0/0, ::ffff:a9fe:a9fe/128 reaches 169.254.169.254/32, ::/0 reaches everything.
 */
export function embeddedIpv4Ranges(c: Cidr): Cidr[] {
  if (c.v !== 6) return [];
  const out: Cidr[] = [];
  for (const p of IPV4_CARRYING_PREFIXES) {
    if (c.len <= p.len && cidrContains(c, { v: 6, n: p.n })) out.push({ v: 4, n: 0n, len: 0 });
    else if (c.len > p.len && cidrContains(p, { v: 6, n: c.n })) {
      // below /96 the last 32 bits all vary (only possible inside the /48)
      out.push(
        c.len >= 96 ? { v: 4, n: c.n & 0xffffffffn, len: c.len - 96 } : { v: 4, n: 0n, len: 0 },
      );
    }
  }
  return out;
}

/** The address a connection really reaches: IPv4-mapped/compatible forms become IPv4. */
export function canonicalIp(raw: string): IpNum | null {
  const ip = parseIp(raw);
  if (!ip) return null;
  return embeddedIpv4(ip) ?? ip;
}
