'use client';

import { useState } from 'react';
import { Button } from '~/components/ui/button';
import { succeeded } from '~/lib/auth-client';

/**
 * The amber strip above a page that asks the user to do something by mail, with one button that
 * sends the link. The button says how the request went; a request that got no answer at all (the
 * network or the server down) reads as failed, so the button never spins for good.
 */
export function MailLinkBanner({
  testId,
  send,
  idleLabel,
  sentLabel,
  children,
}: {
  testId: string;
  /** one of the auth client's mail requests */
  send: () => Promise<{ error: unknown }>;
  idleLabel: string;
  sentLabel: string;
  children: React.ReactNode;
}) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const click = async () => {
    setState('sending');
    setState((await succeeded(send())) ? 'sent' : 'failed');
  };
  return (
    <div
      role="status"
      data-testid={testId}
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
    >
      <span>{children}</span>
      <Button
        size="sm"
        variant="secondary"
        loading={state === 'sending'}
        onClick={() => void click()}
      >
        {state === 'sent'
          ? sentLabel
          : state === 'failed'
            ? 'Could not send: try again'
            : idleLabel}
      </Button>
    </div>
  );
}
