'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { reenter } from '~/lib/enter';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/feedback';
import type { LocatableKind } from '~/lib/locatable-kinds';

/**
 * What a page shows when its object was not found in the active team: if it belongs to another of
 * the user's teams (a link opened after switching or creating a team), which team and a button to
 * switch there, staying on this page; otherwise the error. Teams the user is not in are never named.
 */
export function NotFoundOrElsewhere({
  kind,
  id,
  title,
  error,
}: {
  kind: LocatableKind;
  id: string | null;
  title: string;
  error: unknown;
}) {
  const trpc = useTRPC();
  const notFound = (error as { data?: { code?: string } } | null)?.data?.code === 'NOT_FOUND';
  const where = useQuery(
    trpc.team.locate.queryOptions(
      { kind, id: id ?? '' },
      { enabled: notFound && Boolean(id), retry: false },
    ),
  );
  const me = useQuery(trpc.team.me.queryOptions(undefined, { enabled: Boolean(where.data) }));
  const switchTeam = useMutation(
    trpc.team.switch.mutationOptions({
      onSuccess: async () => {
        reenter();
      },
    }),
  );
  if (where.data && where.data.teamId !== me.data?.active?.id) {
    return (
      <Alert tone="info" title={`This ${kind} belongs to the team ${where.data.teamName}`}>
        <p>
          You are working in {me.data?.active?.name ? <b>{me.data.active.name}</b> : 'another team'}
          . Switch to <b>{where.data.teamName}</b> to open it.
        </p>
        <Button
          size="sm"
          className="mt-2"
          loading={switchTeam.isPending}
          onClick={() => switchTeam.mutate({ teamId: where.data.teamId })}
          data-testid="switch-to-owner-team"
        >
          Switch to {where.data.teamName}
        </Button>
        {switchTeam.isError ? (
          <p className="mt-2 text-sm text-red-700">{messageOf(switchTeam.error)}</p>
        ) : null}
      </Alert>
    );
  }
  return (
    <Alert tone="error" title={title}>
      {messageOf(error)}
    </Alert>
  );
}
