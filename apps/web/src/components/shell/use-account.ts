'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '~/lib/trpc/react';

/** What the account banners need to know about the signed-in account. */
export interface AccountState {
  email: string;
  emailVerified?: boolean;
  hasPassword?: boolean;
}

/**
 * The signed-in account as the page knows it: `team.me`'s answer once it has one, before that what
 * the server rendered the page with (`initial`), so a banner is there from the first paint instead
 * of pushing the page down when `team.me` answers.
 */
export function useAccount(initial?: AccountState): AccountState | undefined {
  const trpc = useTRPC();
  const me = useQuery(trpc.team.me.queryOptions());
  if (!me.data) return initial;
  const { email, emailVerified } = me.data.user;
  return { email, emailVerified, hasPassword: me.data.hasPassword };
}
