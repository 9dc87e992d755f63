'use client';

import { authClient } from '~/lib/auth-client';
import { safeNext } from '~/lib/safe-next';
import { MailLinkBanner } from './mail-link-banner';
import { useAccount, type AccountState } from './use-account';

/**
 * Shown until the signed-in account's address is verified: the app works in the user's own team,
 * but an invitation sent to this address can only be accepted once it is (docs/security.md).
 */
export function VerifyEmailBanner({ initial }: { initial?: AccountState }) {
  const user = useAccount(initial);
  if (!user || user.emailVerified !== false) return null;
  return (
    <MailLinkBanner
      testId="verify-email-banner"
      send={() =>
        authClient.sendVerificationEmail({
          email: user.email,
          // the link leads back to this page (an invitation waiting to be accepted, say)
          callbackURL: safeNext(
            `${window.location.pathname}${window.location.search}`,
            window.location.origin,
          ),
        })
      }
      idleLabel="Send the link again"
      sentLabel="Sent again"
    >
      Verify your email address: PoolBench sent a link to <b>{user.email}</b>. Invitations sent to
      this address can be accepted once it is verified.
    </MailLinkBanner>
  );
}
