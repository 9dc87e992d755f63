import type { Db } from '@poolbench/db';
import { describeAllowPattern, openRangeRefusal } from '@poolbench/contracts/net';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors';
import { normalizePattern } from '../teams/allowlist';

/** The ranges this installation opened to teams' allowlists, each with what it holds. */
export async function listOpenedRanges(db: Db) {
  const rows = await db.installationRange.findMany({
    select: { id: true, cidr: true, note: true, createdAt: true },
    orderBy: { cidr: 'asc' },
  });
  return rows.map((r) => {
    const d = describeAllowPattern(r.cidr);
    return { ...r, holds: `${d.addresses}, ${d.label}` };
  });
}

/**
 * Opens a special-purpose range to every team's allowlist (an IP is its /32 or /128). Link-local,
 * cloud metadata, public-only and wider-than-/8 ranges are refused (`openRangeRefusal`).
 */
export async function openRange(
  db: Db,
  input: { cidr: string; note?: string | null; createdById: string },
) {
  const p = normalizePattern(input.cidr, 'cidr');
  const cidr = p.includes('/') ? p : `${p}/${p.includes(':') ? 128 : 32}`;
  const refusal = openRangeRefusal(cidr);
  if (refusal) throw new InvalidInputError('cidr', refusal);
  if (await db.installationRange.findUnique({ where: { cidr } }))
    throw new ConflictError(`${cidr} is already open`);
  return db.installationRange.create({
    data: { cidr, note: input.note ?? null, createdById: input.createdById },
    select: { id: true, cidr: true },
  });
}

/** Closes a range: teams' entries inside it stay saved but reach nothing from the next run on. */
export async function closeRange(db: Db, id: string) {
  const r = await db.installationRange.deleteMany({ where: { id } });
  if (r.count === 0) throw new NotFoundError('opened range');
}
