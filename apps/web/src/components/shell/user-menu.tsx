'use client';

import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { authClient, succeeded } from '~/lib/auth-client';
import { enter } from '~/lib/enter';
import { cn } from '~/lib/cn';
import { focusRing } from '~/components/ui/button';

export function UserMenu({ user }: { user: { name: string; email: string } }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const initials =
    user.name
      .split(/\s+/)
      .map((p) => p[0])
      .join('')
      .slice(0, 2)
      .toUpperCase() || '?';
  return (
    <div className="flex items-center gap-2.5">
      <div
        className="grid size-8 shrink-0 place-items-center rounded-full bg-slate-800 text-xs font-semibold text-white"
        aria-hidden
      >
        {initials}
      </div>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-800">{user.name}</p>
        <p className="truncate text-xs text-slate-500">{user.email}</p>
      </div>
      <button
        type="button"
        aria-label={failed ? 'Could not sign out: try again' : 'Sign out'}
        title={failed ? 'Could not sign out: try again' : 'Sign out'}
        disabled={busy}
        className={cn(
          'rounded-md p-1.5 hover:bg-slate-100',
          failed ? 'text-red-600 hover:text-red-700' : 'text-slate-500 hover:text-slate-800',
          focusRing,
        )}
        onClick={async () => {
          setBusy(true);
          // refused or never answered: still signed in, so say so and stay
          if (await succeeded(authClient.signOut())) return enter('/sign-in');
          setFailed(true);
          setBusy(false);
        }}
      >
        <LogOut className="size-4" />
      </button>
    </div>
  );
}
