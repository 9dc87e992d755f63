'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { authClient } from '~/lib/auth-client';
import { safeNext } from '~/lib/safe-next';
import { useTRPC } from '~/lib/trpc/react';
import { Button } from '~/components/ui/button';

/**
 * Shown until the signed-in account's address is verified: the app works in the user's own team,
 * but an invitation sent to this address can only be accepted once it is (docs/security.md).
 * `initial` is the session's user as the server rendered the page, so the banner is there from the
 * first paint instead of pushing the page down when `team.me` answers.
 */
export function VerifyEmailBanner({
  initial,
}: {
  initial?: { email: string; emailVerified?: boolean };
}) {
  const trpc = useTRPC();
  const me = useQuery(trpc.team.me.queryOptions());
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const user = me.data?.user ?? initial;
  if (!user || user.emailVerified !== false) return null;
  const resend = async () => {
    setState('sending');
    // the link leads back to this page (an invitation waiting to be accepted, say)
    const r = await authClient.sendVerificationEmail({
      email: user.email,
      callbackURL: safeNext(
        `${window.location.pathname}${window.location.search}`,
        window.location.origin,
      ),
    });
    setState(r.error ? 'failed' : 'sent');
  };
  return (
    <div
      role="status"
      data-testid="verify-email-banner"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
    >
      <span>
        Verify your email address: PoolBench sent a link to <b>{user.email}</b>. Invitations sent to
        this address can be accepted once it is verified.
      </span>
      <Button
        size="sm"
        variant="secondary"
        loading={state === 'sending'}
        onClick={() => void resend()}
      >
        {state === 'sent'
          ? 'Sent again'
          : state === 'failed'
            ? 'Could not send: try again'
            : 'Send the link again'}
      </Button>
    </div>
  );
}
