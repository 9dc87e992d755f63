import { z } from 'zod';

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export const RoleSchema = z.enum(ROLES);
export const ROLE_HELP: Record<(typeof ROLES)[number], string> = {
  owner: 'Everything, including owners and deleting the team',
  admin: 'Manages targets, the allowlist, members and tokens',
  member: 'Creates pool configs and scenarios, runs and cancels experiments',
  viewer: 'Reads everything, changes nothing',
};
