import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { z } from 'zod';
import type { Role } from '@poolbench/db';
import { NotFoundError, InvalidInputError, SecretKeyError } from '@poolbench/db';
import { ScenarioValidationError } from '@poolbench/scenarios';
import { ConflictError, PolicyError } from '../services/errors';
import { resolveTeam } from '../services/teams/resolve-team';
import type { Context } from './context';
import { originRefusal } from './origin-check';
import { hasRole } from './roles';

const t = initTRPC.context<Context>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    return {
      ...shape,
      data: {
        ...shape.data,
        stack: undefined,
        // Field problems for forms: one entry per path, from the same zod schemas the forms use.
        problems:
          cause instanceof z.ZodError
            ? cause.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
            : cause instanceof ScenarioValidationError
              ? cause.problems
              : cause instanceof InvalidInputError
                ? [{ path: cause.path, message: cause.message.slice(cause.path.length + 2) }]
                : null,
      },
    };
  },
});

export const createCallerFactory = t.createCallerFactory;
export const router = t.router;

/** Domain errors from services become tRPC codes here and only here. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause ?? result.error;
    if (cause instanceof NotFoundError) throw new TRPCError({ code: 'NOT_FOUND', message: cause.message, cause });
    if (cause instanceof InvalidInputError || cause instanceof ScenarioValidationError) throw new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause });
    if (cause instanceof ConflictError) throw new TRPCError({ code: 'CONFLICT', message: cause.message, cause });
    if (cause instanceof SecretKeyError) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: `the server cannot store secrets: ${cause.message}`, cause });
    if (cause instanceof PolicyError) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: cause.message, cause });
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

export const publicProcedure = t.procedure.use(checkOrigin).use(mapErrors);

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first' });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/**
 * Team-scoped procedure: the caller's active team (validated against their memberships on every
 * request) and a minimum role. Services then filter every query by ctx.team.id, so ids of other
 * teams come back NOT_FOUND and reveal nothing.
 */
export function teamProcedure(minRole: Role) {
  return protectedProcedure.use(async ({ ctx, next }) => {
    const team = await resolveTeam(ctx.db, ctx.user.id, ctx.activeTeamId);
    if (!team) throw new TRPCError({ code: 'FORBIDDEN', message: 'you are not a member of any team' });
    if (!hasRole(team.role, minRole)) {
      throw new TRPCError({ code: 'FORBIDDEN', message: `this needs the ${minRole} role; you are ${team.role} in ${team.name}` });
    }
    return next({ ctx: { ...ctx, team } });
  });
}
