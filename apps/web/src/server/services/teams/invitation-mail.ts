import { env } from '~/server/env';
import { sendMail } from '~/server/mail';

const appUrl = () => (env.POOLBENCH_URL ?? env.BETTER_AUTH_URL).replace(/\/$/, '');

/** The invitation link, mailed to the invited address (it still needs that address verified). */
export async function sendInvitationMail(
  to: string,
  inv: { token: string; teamName: string; expiresAt: Date },
  inviter: string,
) {
  await sendMail({
    to,
    subject: `${inviter} invited you to ${inv.teamName} on PoolBench`,
    text: [
      `${inviter} invited you to the team "${inv.teamName}" on PoolBench.`,
      '',
      `Accept: ${appUrl()}/invite/${inv.token}`,
      '',
      `Sign in (or sign up) with this address, ${to}, and verify it; the link expires on ${inv.expiresAt.toISOString().slice(0, 10)}.`,
    ].join('\n'),
  });
}

/** The sign-up verification message (Better Auth makes the link). */
export async function sendVerificationMail(to: string, url: string) {
  await sendMail({
    to,
    subject: 'Verify your email address for PoolBench',
    text: [
      'Open this link to verify your email address on PoolBench:',
      '',
      url,
      '',
      'Until it is verified you can use your own team, but not accept an invitation sent to this address.',
    ].join('\n'),
  });
}

/** The password reset message (Better Auth makes the link, valid one hour). */
export async function sendPasswordResetMail(to: string, url: string) {
  await sendMail({
    to,
    subject: 'Choose a new password for PoolBench',
    text: [
      'Open this link within an hour to choose a new password for your PoolBench account:',
      '',
      url,
      '',
      'Choosing it signs out every session of the account. If you did not ask for this, ignore this message.',
    ].join('\n'),
  });
}
