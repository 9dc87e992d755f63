'use client';

import { authClient } from '~/lib/auth-client';
import { MailLinkBanner } from './mail-link-banner';
import { useAccount, type AccountState } from './use-account';

/**
 * Shown while the account has no password: verifying the address from a browser that was not
 * signed in to the account clears any password set before (someone else may have signed up with
 * the address first), and its owner chooses one by the reset mail (docs/security.md).
 */
export function NoPasswordBanner({ initial }: { initial?: AccountState }) {
  const account = useAccount(initial);
  if (!account || account.hasPassword !== false) return null;
  const email = account.email;
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
