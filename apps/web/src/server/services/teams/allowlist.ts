import { isIP } from 'node:net';
import { openedRanges, type Db } from '@poolbench/db';
import {
  describeAllowPattern,
  forbiddenAllowReason,
  parseCidr,
  unopenedAllowReason,
} from '@poolbench/contracts/net';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors';

/**
 * Each entry with what it allows, e.g. "256 addresses, loopback", and, for an entry the
 * installation no longer (or never) opened, why it reaches nothing special (`unopened`).
 */
export async function listAllowedHosts(db: Db, teamId: string) {
  const [rows, opened] = await Promise.all([
    db.allowedHost.findMany({
      where: { teamId },
      select: { id: true, pattern: true, note: true, createdAt: true },
      orderBy: { pattern: 'asc' },
    }),
    openedRanges(db),
  ]);
  return rows.map((r) => {
    const d = describeAllowPattern(r.pattern);
    return {
      ...r,
      allows: `${d.addresses}, ${d.label}`,
      unopened: unopenedAllowReason(r.pattern, opened),
    };
  });
}

/** Accepts a host name, `*.example.com`, an IP, or an IPv4/IPv6 CIDR. */
export function normalizePattern(raw: string, field = 'pattern'): string {
  const p = raw.trim().toLowerCase();
  const [addr, bits, extra] = p.split('/');
  if (extra !== undefined || !addr)
    throw new InvalidInputError(field, 'use a host, *.domain, an IP or a CIDR like 10.0.0.0/8');
  if (bits !== undefined) {
    const v = isIP(addr);
    const n = Number(bits);
    if (!v || !/^\d+$/.test(bits) || !Number.isInteger(n) || n < 0 || n > (v === 4 ? 32 : 128))
      throw new InvalidInputError(field, 'is not a valid CIDR (e.g. 10.0.0.0/8 or fd00::/8)');
    return `${addr}/${n}`;
  }
  if (isIP(addr)) return addr;
  if (
    !/^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(addr)
  ) {
    throw new InvalidInputError(
      field,
      'is not a valid host name (letters, digits, dots and dashes; *.domain for subdomains)',
    );
  }
  return addr;
}

/**
 * Link-local ranges and cloud metadata addresses are refused outright; ranges wider than /8
 * (IPv4) or /32 (IPv6) need the admin's explicit confirmation (`confirmBroad`).
 */
export function checkPatternPolicy(pattern: string, confirmBroad: boolean): void {
  const forbidden = forbiddenAllowReason(pattern);
  if (forbidden) throw new InvalidInputError('pattern', forbidden);
  const c = parseCidr(pattern);
  const d = describeAllowPattern(pattern);
  if (c && d.broad && !confirmBroad) {
    throw new InvalidInputError(
      'confirmBroad',
      `${pattern} allows ${d.addresses} (wider than /${c.v === 4 ? 8 : 32}); confirm that you mean it`,
    );
  }
}

export async function addAllowedHost(
  db: Db,
  input: {
    teamId: string;
    createdById: string;
    pattern: string;
    note?: string | null;
    confirmBroad?: boolean;
  },
) {
  const pattern = normalizePattern(input.pattern);
  checkPatternPolicy(pattern, input.confirmBroad === true);
  // special-purpose addresses only inside what the installation's admin opened
  const unopened = unopenedAllowReason(pattern, await openedRanges(db));
  if (unopened) throw new InvalidInputError('pattern', unopened);
  const exists = await db.allowedHost.findUnique({
    where: { teamId_pattern: { teamId: input.teamId, pattern } },
  });
  if (exists) throw new ConflictError(`${pattern} is already allowed`);
  return db.allowedHost.create({
    data: {
      teamId: input.teamId,
      pattern,
      note: input.note ?? null,
      createdById: input.createdById,
    },
    select: { id: true, pattern: true },
  });
}

export async function removeAllowedHost(db: Db, input: { teamId: string; id: string }) {
  const r = await db.allowedHost.deleteMany({ where: { id: input.id, teamId: input.teamId } });
  if (r.count === 0) throw new NotFoundError('allowed host');
}
