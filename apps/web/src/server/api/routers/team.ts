import { z } from 'zod';
import { RoleSchema } from '~/lib/schemas/role';
import { IdSchema } from '~/lib/schemas/ids';
import { protectedProcedure, teamProcedure } from '../trpc';
import {
  AllowedSchema,
  AllowlistSchema,
  DoneSchema,
  InvitationAcceptedSchema,
  InvitationCreatedSchema,
  InvitationSchema,
  InvitationsSchema,
  LocatedSchema,
  MembersSchema,
  MeSchema,
  RetentionSchema,
  FleetLimitsSchema,
  ScriptPolicySchema,
  TeamCreatedSchema,
} from './team.types';
import { hasPassword } from '~/server/services/auth/has-password';
import { listMyTeams } from '~/server/services/teams/list-my-teams';
import { resolveTeam } from '~/server/services/teams/resolve-team';
import { switchTeam } from '~/server/services/teams/switch-team';
import { LOCATABLE_KINDS } from '~/lib/locatable-kinds';
import { locateObject } from '~/server/services/teams/locate-object';
import { createTeam } from '~/server/services/teams/create-team';
import { listMembers } from '~/server/services/teams/list-members';
import { changeMemberRole, removeMember } from '~/server/services/teams/change-member';
import {
  acceptInvitation,
  createInvitation,
  describeInvitation,
  listInvitations,
  revokeInvitation,
} from '~/server/services/teams/invitations';
import {
  addAllowedHost,
  listAllowedHosts,
  removeAllowedHost,
} from '~/server/services/teams/allowlist';
import { getRetention, MAX_RETENTION_DAYS, setRetention } from '~/server/services/teams/retention';
import { sendInvitationMail } from '~/server/services/teams/invitation-mail';
import {
  FLEET_LIMIT_BOUNDS,
  getFleetLimits,
  setFleetLimits,
} from '~/server/services/teams/fleet-limits';
import { getScriptPolicy, setScriptPolicy } from '~/server/services/scenarios/script-scenarios';

const TokenSchema = z.object({ token: z.string().min(16).max(128) });

export const teamRouter = {
  /** Who am I, which teams, which one is active (and my role in it). */
  me: protectedProcedure.output(MeSchema).query(async ({ ctx }) => ({
    user: ctx.user,
    teams: await listMyTeams(ctx.db, ctx.user.id),
    active: await (ctx.resolveTeam ?? resolveTeam)(ctx.db, ctx.user.id, ctx.activeTeamId),
    hasPassword: await hasPassword(ctx.db, ctx.user.id),
  })),
  switch: protectedProcedure
    .input(z.object({ teamId: IdSchema }))
    .output(DoneSchema)
    .mutation(async ({ ctx, input }) => {
      await switchTeam(ctx.db, {
        userId: ctx.user.id,
        sessionId: ctx.sessionId ?? '',
        teamId: input.teamId,
      });
      await ctx.forgetAuth?.({ sessionId: ctx.sessionId });
    }),
  /** Which of my teams holds the object a link points to (NOT_FOUND for teams I am not in). */
  locate: protectedProcedure
    .input(z.object({ kind: z.enum(LOCATABLE_KINDS), id: IdSchema }))
    .output(LocatedSchema)
    .query(({ ctx, input }) => locateObject(ctx.db, ctx.user.id, input)),
  create: protectedProcedure
    .input(z.object({ name: z.string().trim().min(1, 'is required').max(80) }))
    .output(TeamCreatedSchema)
    .mutation(async ({ ctx, input }) => {
      const team = await createTeam(ctx.db, { userId: ctx.user.id, name: input.name });
      if (ctx.sessionId)
        await switchTeam(ctx.db, {
          userId: ctx.user.id,
          sessionId: ctx.sessionId,
          teamId: team.id,
        });
      await ctx.forgetAuth?.({ userId: ctx.user.id, sessionId: ctx.sessionId });
      return team;
    }),
  members: teamProcedure('viewer')
    .output(MembersSchema)
    .query(({ ctx }) => listMembers(ctx.db, ctx.team.id)),
  changeRole: teamProcedure('admin')
    .input(z.object({ membershipId: IdSchema, role: RoleSchema }))
    .output(DoneSchema)
    .mutation(async ({ ctx, input }) => {
      const member = await changeMemberRole(
        ctx.db,
        { teamId: ctx.team.id, userId: ctx.user.id, role: ctx.team.role },
        input,
      );
      await ctx.forgetAuth?.({ userId: member.userId });
    }),
  removeMember: teamProcedure('admin')
    .input(z.object({ membershipId: IdSchema }))
    .output(DoneSchema)
    .mutation(async ({ ctx, input }) => {
      const member = await removeMember(
        ctx.db,
        { teamId: ctx.team.id, userId: ctx.user.id, role: ctx.team.role },
        input,
      );
      await ctx.forgetAuth?.({ userId: member.userId });
    }),
  invitations: teamProcedure('admin')
    .output(InvitationsSchema)
    .query(({ ctx }) => listInvitations(ctx.db, ctx.team.id)),
  invite: teamProcedure('admin')
    .input(
      z.object({
        role: RoleSchema,
        email: z.union([z.literal(''), z.string().email('must be an email address')]).optional(),
      }),
    )
    .output(InvitationCreatedSchema)
    .mutation(async ({ ctx, input }) => {
      const inv = await createInvitation(ctx.db, {
        teamId: ctx.team.id,
        createdById: ctx.user.id,
        actorRole: ctx.team.role,
        role: input.role,
        email: input.email || null,
      });
      // an invitation for an address is also sent to it; the link is shown to the admin either way
      if (input.email)
        await sendInvitationMail(
          input.email,
          { ...inv, teamName: ctx.team.name },
          ctx.user.name,
        ).catch(
          // the link is shown to the admin either way; a mail server that is down is logged
          (err: unknown) =>
            console.error(`[mail] invitation to ${input.email} not sent: ${String(err)}`),
        );
      return inv;
    }),
  revokeInvitation: teamProcedure('admin')
    .input(z.object({ id: IdSchema }))
    .output(DoneSchema)
    .mutation(({ ctx, input }) =>
      revokeInvitation(ctx.db, { teamId: ctx.team.id, invitationId: input.id }),
    ),
  /** The invitation a link points at (team name, role), for the accept page. */
  invitation: protectedProcedure
    .input(TokenSchema)
    .output(InvitationSchema)
    .query(({ ctx, input }) => describeInvitation(ctx.db, input.token)),
  acceptInvitation: protectedProcedure
    .input(TokenSchema)
    .output(InvitationAcceptedSchema)
    .mutation(async ({ ctx, input }) => {
      const accepted = await acceptInvitation(ctx.db, {
        token: input.token,
        userId: ctx.user.id,
        userEmail: ctx.user.email,
        userEmailVerified: ctx.user.emailVerified === true,
        sessionId: ctx.sessionId,
      });
      await ctx.forgetAuth?.({ userId: ctx.user.id, sessionId: ctx.sessionId });
      return accepted;
    }),
  allowlist: teamProcedure('viewer')
    .output(AllowlistSchema)
    .query(({ ctx }) => listAllowedHosts(ctx.db, ctx.team.id)),
  allow: teamProcedure('admin')
    .input(
      z.object({
        pattern: z.string().min(1, 'is required').max(253),
        note: z.string().max(200).optional(),
        confirmBroad: z.boolean().default(false),
      }),
    )
    .output(AllowedSchema)
    .mutation(({ ctx, input }) =>
      addAllowedHost(ctx.db, {
        teamId: ctx.team.id,
        createdById: ctx.user.id,
        pattern: input.pattern,
        note: input.note ?? null,
        confirmBroad: input.confirmBroad,
      }),
    ),
  /** How long per-second data is kept (null = forever) and how many runs lost theirs so far. */
  retention: teamProcedure('viewer')
    .output(RetentionSchema)
    .query(({ ctx }) => getRetention(ctx.db, ctx.team.id)),
  setRetention: teamProcedure('admin')
    .input(
      z.object({
        retentionDays: z
          .number()
          .int('must be a whole number of days')
          .min(1, 'must be at least 1 day')
          .max(MAX_RETENTION_DAYS, `must be at most ${MAX_RETENTION_DAYS} days`)
          .nullable(),
      }),
    )
    .output(RetentionSchema)
    .mutation(({ ctx, input }) => setRetention(ctx.db, ctx.team.id, input.retentionDays)),
  /** What the team may ask of the load fleet, what it has queued, and the workers online. */
  fleetLimits: teamProcedure('viewer')
    .output(FleetLimitsSchema)
    .query(({ ctx }) => getFleetLimits(ctx.db, ctx.team.id)),
  setFleetLimits: teamProcedure('admin')
    .input(
      z.object({
        maxRunsPerExperiment: z
          .number()
          .int('must be a whole number')
          .min(1, 'must be at least 1')
          .max(
            FLEET_LIMIT_BOUNDS.maxRunsPerExperiment,
            `must be at most ${FLEET_LIMIT_BOUNDS.maxRunsPerExperiment}`,
          )
          .nullable(),
        maxQueuedLoadMinutes: z
          .number()
          .int('must be a whole number of minutes')
          .min(1, 'must be at least 1 minute')
          .max(
            FLEET_LIMIT_BOUNDS.maxQueuedLoadMinutes,
            `must be at most ${FLEET_LIMIT_BOUNDS.maxQueuedLoadMinutes} minutes (a week)`,
          )
          .nullable(),
      }),
    )
    .output(FleetLimitsSchema)
    .mutation(({ ctx, input }) => setFleetLimits(ctx.db, ctx.team.id, input)),
  /** whether members may import and run their own k6 scripts */
  scriptPolicy: teamProcedure('viewer')
    .output(ScriptPolicySchema)
    .query(({ ctx }) => getScriptPolicy(ctx.db, ctx.team.id)),
  setScriptPolicy: teamProcedure('admin')
    .input(z.object({ enabled: z.boolean() }))
    .output(ScriptPolicySchema)
    .mutation(({ ctx, input }) => setScriptPolicy(ctx.db, ctx.team.id, input.enabled)),
  disallow: teamProcedure('admin')
    .input(z.object({ id: IdSchema }))
    .output(DoneSchema)
    .mutation(({ ctx, input }) => removeAllowedHost(ctx.db, { teamId: ctx.team.id, id: input.id })),
};
