'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { authClient } from '~/lib/auth-client';
import { useTRPC } from '~/lib/trpc/react';
import { Button } from '~/components/ui/button';

/**
 * Shown while the account has no password: verifying the address from a browser that was not
 * signed in to the account clears any password set before (someone else may have signed up with
 * the address first), and its owner chooses one by the reset mail (docs/security.md).
 */
export function NoPasswordBanner() {
  const trpc = useTRPC();
  const me = useQuery(trpc.team.me.queryOptions());
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  if (!me.data || me.data.hasPassword) return null;
  const email = me.data.user.email;
  const send = async () => {
    setState('sending');
    const r = await authClient.requestPasswordReset({ email, redirectTo: '/reset-password' });
    setState(r.error ? 'failed' : 'sent');
  };
  return (
    <div
      role="status"
      data-testid="no-password-banner"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
    >
      <span>
        This account has no password yet: a password set before <b>{email}</b> was verified no
        longer signs in. Choose one to sign in again after this session.
      </span>
      <Button
        size="sm"
        variant="secondary"
        loading={state === 'sending'}
        onClick={() => void send()}
      >
        {state === 'sent'
          ? `Link sent to ${email}`
          : state === 'failed'
            ? 'Could not send: try again'
            : 'Mail me a link to choose one'}
      </Button>
    </div>
  );
}
