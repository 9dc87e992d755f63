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

/** The address a connection really reaches: IPv4-mapped/compatible forms become IPv4. */
export function canonicalIp(raw: string): IpNum | null {
  const ip = parseIp(raw);
  if (!ip) return null;
  return embeddedIpv4(ip) ?? ip;
}
