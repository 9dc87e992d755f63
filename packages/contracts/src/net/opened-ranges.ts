import {
  cidrContains,
  formatCidr,
  formatIp,
  judgedIp,
  parseCidr,
  type Cidr,
  type IpNum,
} from './ip-math';
import { isBroad } from './describe-range';
import {
  rangeLabel,
  SPECIAL_RANGES,
  specialLabel,
  touchesLinkLocalOrMetadata,
} from './special-ranges';

/**
 * Two levels of trust: a team's allowlist reaches a special-purpose address (loopback, private,
 * CGN, …) only inside a range the installation's admin opened; public addresses need no opening.
 * `opened` is the installation's list of CIDRs (`InstallationRange.cidr`).
 */
export function parseOpened(opened: readonly string[]): Cidr[] {
  return opened.map((o) => parseCidr(o)).filter((c) => c !== null);
}

/** Is a special-purpose address inside an opened range (itself or the IPv4 address it carries)? */
export function addressOpened(ip: IpNum, opened: readonly Cidr[]): boolean {
  const judged = judgedIp(ip);
  return opened.some((o) => cidrContains(o, ip) || cidrContains(o, judged));
}

const SPECIAL: Cidr[] = SPECIAL_RANGES.map((r) => parseCidr(r.cidr)!);
/** IPv6 prefixes whose addresses are judged by the IPv4 address they carry or translate to. */
const CARRIERS: Cidr[] = ['::ffff:0:0/96', '::/96', '64:ff9b::/96', '64:ff9b:1::/48'].map((c) =>
  parseCidr(c)!,
);

const NOT_COMPATIBLE = parseCidr('::/127')!;

const overlaps = (a: Cidr, b: Cidr) =>
  a.v === b.v && (cidrContains(a, { v: b.v, n: b.n }) || cidrContains(b, { v: a.v, n: a.n }));
const within = (inner: Cidr, outer: Cidr) =>
  inner.v === outer.v && outer.len <= inner.len && cidrContains(outer, { v: inner.v, n: inner.n });

function halves(c: Cidr): [Cidr, Cidr] {
  const bits = c.v === 4 ? 32 : 128;
  const len = c.len + 1;
  return [
    { v: c.v, n: c.n, len },
    { v: c.v, n: c.n | (1n << BigInt(bits - len)), len },
  ];
}

/**
 * The first part of a team's IP/CIDR entry that holds special-purpose addresses outside every
 * opened range, or null when the entry reaches only public addresses and opened ones. The same
 * rule as the worker's at run time (`addressOpened` for each special address), for a whole range:
 * the range is split only where a special or opened range begins, so this stays small.
 */
export function firstUnopened(
  c: Cidr,
  opened: readonly Cidr[],
): { part: Cidr; label: string } | null {
  if (opened.some((o) => within(c, o))) return null;
  // :: and ::1 lie in ::/96 but carry no IPv4 address: judged as themselves
  const carrier = CARRIERS.find((p) => within(c, p)) && !overlaps(c, NOT_COMPATIBLE);
  if (carrier) {
    // judged by the IPv4 range it carries (::ffff:127.0.0.0/104 is 127.0.0.0/8)
    const v4: Cidr =
      c.len >= 96 ? { v: 4, n: c.n & 0xffffffffn, len: c.len - 96 } : { v: 4, n: 0n, len: 0 };
    const inner = firstUnopened(v4, opened);
    return inner ? { part: c, label: inner.label } : null;
  }
  const touched = [...SPECIAL, ...(c.v === 6 ? CARRIERS : [])].filter((s) => overlaps(s, c));
  if (touched.length === 0) return null;
  // wholly special and nothing opened inside it: this whole part is refused
  const homogeneous =
    touched.some((s) => within(c, s)) &&
    !CARRIERS.some((p) => p.len > c.len && overlaps(p, c)) &&
    !opened.some((o) => overlaps(o, c));
  if (homogeneous) return { part: c, label: rangeLabel(c) };
  for (const h of halves(c)) {
    const r = firstUnopened(h, opened);
    if (r) return r;
  }
  return null;
}

const show = (c: Cidr) => (c.len === (c.v === 4 ? 32 : 128) ? formatIp(c) : formatCidr(c));

/**
 * Why a team may not allowlist `pattern` on this installation, or null. Host name patterns reach
 * only public addresses and need no opening.
 */
export function unopenedAllowReason(pattern: string, opened: readonly string[]): string | null {
  const c = parseCidr(pattern);
  if (!c) return null;
  const miss = firstUnopened(c, parseOpened(opened));
  if (!miss) return null;
  const part = show(miss.part);
  const what =
    part === pattern || `${part}/${miss.part.len}` === pattern ? part : `${pattern} holds ${part}`;
  return `${what} (${miss.label}) is outside every range this installation opened to teams; an installation admin must open it first (Settings → Installation)`;
}

/**
 * Why an installation admin may not open `cidr`, or null. Link-local ranges and cloud metadata
 * addresses stay closed for everyone; a range of public addresses needs no opening.
 */
export function openRangeRefusal(cidr: string): string | null {
  const c = parseCidr(cidr);
  if (!c) return 'use an IP address or a CIDR such as 127.0.0.0/8 or 10.0.0.0/8';
  const never = touchesLinkLocalOrMetadata(c);
  if (never)
    return `includes ${never}: cloud metadata services live there, so it can never be opened`;
  if (isBroad(c))
    return `${cidr} is wider than /${c.v === 4 ? 8 : 32}; open the special-purpose ranges it holds one by one`;
  if (firstUnopened(c, []) === null)
    return `${cidr} holds only public addresses, which a team admin can allowlist without it`;
  return null;
}

/** The installation-level message for a special-purpose address a team's entry allows. */
export function notOpenedMessage(addr: string, ip: IpNum): string {
  return `${addr} is a ${specialLabel(ip) ?? 'special-purpose'} address outside every range this installation opened to teams; an installation admin can open one that holds it (Settings → Installation)`;
}
