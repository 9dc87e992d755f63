import { z } from 'zod';
import { RoleSchema } from '~/lib/schemas/role';

/** Response schemas of the team procedures (documenso's `.types.ts` pattern). */
const TeamWithRoleSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  role: RoleSchema,
});

export const MeSchema = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    /** verified through the link mailed at sign-up (absent: not known, e.g. a server-side caller) */
    emailVerified: z.boolean().optional(),
  }),
  teams: z.array(TeamWithRoleSchema),
  /** null only for a user without any team */
  active: TeamWithRoleSchema.nullable(),
  /**
   * whether the account has a password to sign in with: an address verified by someone not signed
   * in to the account clears one set before, and its owner chooses a new one by the reset mail
   */
  hasPassword: z.boolean(),
});

export const LocatedSchema = z.object({ teamId: z.string(), teamName: z.string() });
export const TeamCreatedSchema = z.object({ id: z.string(), slug: z.string() });

export const MembersSchema = z.array(
  z.object({
    membershipId: z.string(),
    role: RoleSchema,
    joinedAt: z.date(),
    id: z.string(),
    name: z.string(),
    email: z.string(),
  }),
);

export const InvitationsSchema = z.array(
  z.object({
    id: z.string(),
    email: z.string().nullable(),
    role: RoleSchema,
    expiresAt: z.date(),
    createdAt: z.date(),
  }),
);
/** The only answer that carries the invitation token (only its hash is stored). */
export const InvitationCreatedSchema = z.object({
  id: z.string(),
  expiresAt: z.date(),
  token: z.string(),
});
export const InvitationSchema = z.object({
  teamName: z.string(),
  role: RoleSchema,
  accepted: z.boolean(),
});
export const InvitationAcceptedSchema = z.object({ teamId: z.string() });

export const AllowlistSchema = z.array(
  z.object({
    id: z.string(),
    pattern: z.string(),
    note: z.string().nullable(),
    createdAt: z.date(),
    allows: z.string(),
    /** why the entry reaches nothing special on this installation (a range not opened), or null */
    unopened: z.string().nullable(),
  }),
);
export const AllowedSchema = z.object({ id: z.string(), pattern: z.string() });

export const RetentionSchema = z.object({
  /** null keeps per-second data forever */
  retentionDays: z.number().int().nullable(),
  /** runs of the team whose per-second data retention has removed */
  prunedRuns: z.number().int(),
});

/** switch, changeRole, removeMember, revokeInvitation and disallow answer nothing */
export const DoneSchema = z.void();

const FleetLimitValues = z.object({
  maxRunsPerExperiment: z.number().int(),
  maxQueuedLoadMinutes: z.number().int(),
});

/** The team's fleet limits in force, its own settings (null = default), its queue, workers online. */
export const FleetLimitsSchema = FleetLimitValues.extend({
  defaults: FleetLimitValues,
  custom: z.object({
    maxRunsPerExperiment: z.number().int().nullable(),
    maxQueuedLoadMinutes: z.number().int().nullable(),
  }),
  queuedRuns: z.number().int(),
  queuedLoadMinutes: z.number().int(),
  onlineWorkers: z.number().int(),
});

/** Whether the team's members may import and run their own k6 scripts. */
export const ScriptPolicySchema = z.object({ enabled: z.boolean() });
