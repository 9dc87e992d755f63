import type { Role } from '@poolbench/db';

const RANK: Record<Role, number> = { viewer: 1, member: 2, admin: 3, owner: 4 };

/** viewer < member < admin < owner: viewers read, members run, admins manage. */
export function hasRole(role: Role, min: Role): boolean {
  return RANK[role] >= RANK[min];
}
