import type { Role } from '@poolbench/db';
import { z } from 'zod';
import { hasRole } from '~/lib/roles';

export const API_SCOPES = ['runs:read', 'runs:write'] as const;
export const ApiScopeSchema = z.enum(API_SCOPES);
export type ApiScope = z.infer<typeof ApiScopeSchema>;

export const SCOPE_HELP: Record<ApiScope, string> = {
  'runs:read': 'read experiments, runs, summaries and comparisons',
  'runs:write': 'start experiments, save baselines, create share links',
};

/**
 * The least team role that may do what a scope allows, matching the tRPC procedures behind it
 * (reads are viewer procedures; starting experiments, baselines and share links are member ones).
 */
export const SCOPE_MIN_ROLE: Record<ApiScope, Role> = {
  'runs:read': 'viewer',
  'runs:write': 'member',
};

/**
 * A token never does more than its creator may do today: demoting the creator narrows every token
 * they made at once, without anyone having to remember to revoke it.
 */
export function scopeAllowedFor(creatorRole: Role, scope: ApiScope): boolean {
  return hasRole(creatorRole, SCOPE_MIN_ROLE[scope]);
}
