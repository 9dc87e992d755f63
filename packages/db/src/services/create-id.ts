import { randomBytes } from 'node:crypto';

/** Sortable, URL-safe ids for rows created outside Prisma's @default(cuid()) (bulk inserts). */
export function createId(): string {
  const time = Date.now().toString(36).padStart(9, '0');
  return `c${time}${randomBytes(10).toString('base64url').replace(/[-_]/g, 'x').toLowerCase().slice(0, 14)}`;
}
