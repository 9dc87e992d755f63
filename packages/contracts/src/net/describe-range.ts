import { cidrSize, parseCidr, type Cidr } from './ip-math';
import { rangeLabel, touchesLinkLocalOrMetadata } from './special-ranges';

/** Widest ranges an allowlist entry may hold without the admin confirming it explicitly. */
export const BROAD_PREFIX = { 4: 8, 6: 32 } as const;

export const isBroad = (c: Cidr) => c.len < BROAD_PREFIX[c.v];

function count(n: bigint): string {
  if (n < 1_000_000_000n) return n.toLocaleString('en-US');
  const exp = n.toString(2).length - 1;
  return `2^${exp}`;
}

/**
 * What one allowlist entry allows, for people: "127.0.0.0/24 — 256 addresses, loopback".
 * Host name patterns allow public addresses only (a name never covers a special range).
 */
export function describeAllowPattern(pattern: string): {
  addresses: string;
  size: bigint | null;
  label: string;
  broad: boolean;
} {
  const c = parseCidr(pattern);
  if (!c) {
    return {
      addresses: pattern.startsWith('*.') ? 'every name under this domain' : 'this host name',
      size: null,
      label: 'public addresses only',
      broad: false,
    };
  }
  const size = cidrSize(c);
  const label = c.len === 0 ? 'every address' : rangeLabel(c);
  return {
    addresses: `${count(size)} address${size === 1n ? '' : 'es'}`,
    size,
    label,
    broad: isBroad(c),
  };
}

/** Why an allowlist entry is refused outright, or null. */
export function forbiddenAllowReason(pattern: string): string | null {
  const c = parseCidr(pattern);
  if (!c) return null;
  const why = touchesLinkLocalOrMetadata(c);
  return why
    ? `includes ${why}: cloud metadata services live there, so it can never be allowed`
    : null;
}
