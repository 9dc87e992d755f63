import type { Role } from '@poolbench/db';
import { TRPCError } from '@trpc/server';
import { teamProcedure } from './trpc';

/** The refusal every gated procedure gives an account whose address is not verified yet. */
export const VERIFY_FIRST_MESSAGE =
  'verify your email address first: PoolBench mailed you a link (the banner at the top sends it ' +
  'again). Until then an account cannot launch runs, save or test targets, check k6 scripts or ' +
  'create API tokens';

/**
 * `teamProcedure` for what spends the installation's load or reaches the network on a team's word:
 * launching runs, saving or testing targets, checking scripts, API tokens. Every sign-up is the
 * admin of a team of its own, so an address nobody has proven is not enough for those; its own
 * team is otherwise open to it. A caller whose verification is unknown (a server-side caller
 * without a session) is not refused here.
 */
export function verifiedTeamProcedure(minRole: Role) {
  return teamProcedure(minRole).use(({ ctx, next }) => {
    if (ctx.user.emailVerified === false)
      throw new TRPCError({ code: 'FORBIDDEN', message: VERIFY_FIRST_MESSAGE });
    return next();
  });
}
