import { createEmailVerificationToken } from 'better-auth/api';

/**
 * Opens an address's verification link with the signed-in account's cookie, as its owner does from
 * the mail (an unverified account cannot save targets or make API tokens). The link's token is
 * signed with the installation's secret, which the suite's environment has.
 */
export async function verifyEmail(base: string, cookie: string, email: string): Promise<void> {
  const secret = process.env.BETTER_AUTH_SECRET;
  if (!secret) throw new Error('BETTER_AUTH_SECRET is not set: run these tests as make test does');
  const token = await createEmailVerificationToken(secret, email);
  const res = await fetch(`${base}/api/auth/verify-email?token=${encodeURIComponent(token)}`, {
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`verify-email: ${res.status} ${await res.text()}`);
}
