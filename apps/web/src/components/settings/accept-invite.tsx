'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { enter } from '~/lib/enter';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { Button } from '~/components/ui/button';
import { Alert, Spinner } from '~/components/ui/feedback';
import { ErrorAlert } from '~/components/ui/query-state';
import { VerifyEmailBanner } from '~/components/shell/verify-email-banner';

export function AcceptInvite({ token }: { token: string }) {
  const trpc = useTRPC();
  const inv = useQuery(trpc.team.invitation.queryOptions({ token }));
  const accept = useMutation(
    trpc.team.acceptInvitation.mutationOptions({
      onSuccess: () => {
        enter('/runs');
      },
    }),
  );
  if (inv.isPending) return <Spinner label="Checking the invitation" />;
  if (inv.isError)
    return (
      <Alert tone="error" title="This invitation cannot be used">
        {messageOf(inv.error)}
      </Alert>
    );
  return (
    <div className="space-y-4">
      <VerifyEmailBanner />
      <h1 className="text-xl font-semibold">Join {inv.data.teamName}</h1>
      <p className="text-sm text-slate-600">
        You are invited as <strong>{inv.data.role}</strong>.
      </p>
      {inv.data.accepted ? <Alert tone="warning">This invitation was already used.</Alert> : null}
      <ErrorAlert error={accept.error} />
      <Button
        onClick={() => accept.mutate({ token })}
        loading={accept.isPending}
        disabled={inv.data.accepted}
      >
        Accept and join
      </Button>
    </div>
  );
}
