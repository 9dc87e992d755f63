'use client';

import { useQuery } from '@tanstack/react-query';
import type { Role } from '@poolbench/db';
import { useTRPC } from '~/lib/trpc/react';

const RANK: Record<Role, number> = { viewer: 1, member: 2, admin: 3, owner: 4 };

/** The caller's role in the active team, for hiding what the server would refuse anyway. */
export function useRole() {
  const trpc = useTRPC();
  const me = useQuery(trpc.team.me.queryOptions());
  const role = me.data?.active?.role ?? null;
  return {
    role,
    can: (min: Role) => role !== null && RANK[role] >= RANK[min],
    loading: me.isPending,
  };
}
