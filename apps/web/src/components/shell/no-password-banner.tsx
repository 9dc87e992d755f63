'use client';

import { useQuery } from '@tanstack/react-query';
import { authClient } from '~/lib/auth-client';
import { useTRPC } from '~/lib/trpc/react';
import { MailLinkBanner } from './mail-link-banner';

/**
 * Shown while the account has no password: verifying the address from a browser that was not
 * signed in to the account clears any password set before (someone else may have signed up with
 * the address first), and its owner chooses one by the reset mail (docs/security.md). `initial`
 * is what the server rendered the page with, so the banner is there from the first paint.
 */
export function NoPasswordBanner({
  initial,
}: {
  initial?: { email: string; hasPassword?: boolean };
}) {
  const trpc = useTRPC();
  const me = useQuery(trpc.team.me.queryOptions());
  const known = me.data ? { email: me.data.user.email, hasPassword: me.data.hasPassword } : initial;
  if (!known || known.hasPassword !== false) return null;
  const email = known.email;
  return (
    <MailLinkBanner
      testId="no-password-banner"
      send={() => authClient.requestPasswordReset({ email, redirectTo: '/reset-password' })}
      idleLabel="Mail me a link to choose one"
      sentLabel={`Link sent to ${email}`}
    >
      This account has no password yet: a password set before <b>{email}</b> was verified no longer
      signs in. Choose one to sign in again after this session.
    </MailLinkBanner>
  );
}
