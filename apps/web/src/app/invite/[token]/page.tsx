import Link from 'next/link';
import { getSession } from '~/server/session';
import { AcceptInvite } from '~/components/settings/accept-invite';
import { buttonClass } from '~/components/ui/button';

export const dynamic = 'force-dynamic';

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const session = await getSession();
  const next = encodeURIComponent(`/invite/${token}`);
  return (
    <div className="flex min-h-screen items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 shadow-lg">
        {session ? (
          <AcceptInvite token={token} />
        ) : (
          <div className="space-y-4 text-center">
            <h1 className="text-xl font-semibold">You have been invited to a PoolBench team</h1>
            <p className="text-sm text-slate-500">
              Sign in or create an account to accept the invitation.
            </p>
            <div className="flex justify-center gap-2">
              <Link className={buttonClass('secondary')} href={`/sign-in?next=${next}`}>
                Sign in
              </Link>
              <Link className={buttonClass('primary')} href={`/sign-up?next=${next}`}>
                Create account
              </Link>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
