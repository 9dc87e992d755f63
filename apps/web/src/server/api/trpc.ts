import { initTRPC, TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { Role } from '@poolbench/db';
import { flattenIssues } from '@poolbench/scenarios';
import { AppError, ERROR_CODES, isErrorCode, refuseNul } from '@poolbench/contracts/errors';
import { resolveTeam } from '../services/teams/resolve-team';
import { isInstallationAdmin } from '../services/installation/installation-admin';
import { env } from '../env';
import type { Context } from './context';
import { fastSuperjson } from './fast-transformer';
import { originRefusal } from './origin-check';
import { hasRole } from '~/lib/roles';

/** What a client reads of a server failure that is not one of ours (a bug, a database error). */
export const INTERNAL_MESSAGE =
  'The server could not complete this request. The error is logged on the server; try again, or tell the operator if it keeps happening.';

/**
 * The message a client sees: domain errors and validation errors as they are, an unexpected failure
 * as INTERNAL_MESSAGE, so database errors (query text, column and table names) and stack details
 * stay on the server (handle-trpc.ts logs them).
 */
export function clientMessage(error: TRPCError): string {
  if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof AppError))
    return INTERNAL_MESSAGE;
  return error.message;
}

const t = initTRPC.context<Context>().create({
  transformer: fastSuperjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    return {
      ...shape,
      message: clientMessage(error),
      data: {
        ...shape.data,
        stack: undefined,
        // The stable code of the one error model (ERROR_CODES), the same a REST client sees.
        appCode: cause instanceof AppError ? cause.code : null,
        // Field problems for forms, one entry per path, carried as data by the error itself.
        problems:
          cause instanceof z.ZodError
            ? flattenIssues(cause.issues)
            : cause instanceof AppError && cause.problems.length
              ? cause.problems
              : null,
      },
    };
  },
});

export const createCallerFactory = t.createCallerFactory;
export const router = t.router;

/** Domain errors (AppError) become tRPC errors here and only here, through the one table of codes. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause ?? result.error;
    if (cause instanceof AppError && isErrorCode(cause.code)) {
      throw new TRPCError({ code: ERROR_CODES[cause.code].trpc, message: cause.message, cause });
    }
  }
  return result;
});

/**
 * Mutations over HTTP must come from our own origin (see `originRefusal`); queries change nothing
 * and server-side callers (React Server Components, tests) have no HTTP request to check.
 */
const checkOrigin = t.middleware(({ ctx, type, next }) => {
  if (type === 'mutation' && ctx.http) {
    const refusal = originRefusal(ctx.http);
    if (refusal) throw new TRPCError({ code: 'FORBIDDEN', message: refusal });
  }
  return next();
});

/** A NUL character anywhere in the input is refused naming its field (Postgres stores none). */
const refuseNulInput = t.middleware(async ({ getRawInput, next }) => {
  refuseNul(await getRawInput());
  return next();
});

export const publicProcedure = t.procedure.use(checkOrigin).use(mapErrors).use(refuseNulInput);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first' });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/**
 * For installation admins only (`isInstallationAdmin`: the first account, or a verified address in
 * POOLBENCH_INSTALLATION_ADMINS): what every team may reach, not one team's data.
 */
export const installationProcedure = protectedProcedure.use(async ({ ctx, next }) => {
  const admins = ctx.installationAdmins ?? env.POOLBENCH_INSTALLATION_ADMINS;
  if (!(await isInstallationAdmin(ctx.db, ctx.user, admins)))
    throw new TRPCError({
      code: 'FORBIDDEN',
      message:
        "this needs an installation admin (the installation's first account, or one named in POOLBENCH_INSTALLATION_ADMINS)",
    });
  return next();
});

/**
 * Team-scoped procedure: the caller's active team (validated against their memberships on every
 * request, or taken from the process's auth cache for at most `AUTH_CACHE_MAX_MS`) and a minimum
 * role. Services then filter every query by ctx.team.id, so ids of other
 * teams come back NOT_FOUND and reveal nothing.
 */
export function teamProcedure(minRole: Role) {
  return protectedProcedure.use(async ({ ctx, type, next }) => {
    const team = await (ctx.resolveTeam ?? resolveTeam)(ctx.db, ctx.user.id, ctx.activeTeamId);
    if (!team)
      throw new TRPCError({ code: 'FORBIDDEN', message: 'you are not a member of any team' });
    if (!hasRole(team.role, minRole)) {
      throw new TRPCError({
        code: 'FORBIDDEN',
        message: `this needs the ${minRole} role; you are ${team.role} in ${team.name}`,
      });
    }
    const result = await next({ ctx: { ...ctx, team } });
    // a change to the team's data: the comparisons web processes keep for a moment are redone
    if (type === 'mutation' && result.ok) await ctx.forgetAuth?.({ teamId: team.id });
    return result;
  });
}
