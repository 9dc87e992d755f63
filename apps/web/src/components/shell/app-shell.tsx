'use client';

import {
  Gauge,
  Activity,
  CalendarClock,
  FlaskConical,
  GitCompareArrows,
  Layers,
  LineChart,
  Menu,
  Rocket,
  Server,
  Settings,
  Sprout,
} from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import { cn } from '~/lib/cn';
import { focusRing } from '~/components/ui/button';
import { TeamSwitcher } from './team-switcher';
import { NoPasswordBanner } from './no-password-banner';
import { VerifyEmailBanner } from './verify-email-banner';
import { UserMenu } from './user-menu';

const NAV = [
  { href: '/runs', label: 'Runs', icon: Activity },
  { href: '/experiments', label: 'Experiments', icon: FlaskConical },
  { href: '/compare', label: 'Compare', icon: GitCompareArrows },
  { href: '/advisor', label: 'Advisor', icon: Gauge },
  { href: '/trends', label: 'Trends', icon: LineChart },
  { href: '/scenarios', label: 'Scenarios', icon: Layers },
  { href: '/targets', label: 'Targets', icon: Server },
  { href: '/schedules', label: 'Schedules', icon: CalendarClock },
  { href: '/seeds', label: 'Seeds', icon: Sprout },
  { href: '/settings', label: 'Settings', icon: Settings },
  { href: '/getting-started', label: 'Get started', icon: Rocket },
];

export function AppShell({
  user,
  children,
}: {
  user: { name: string; email: string; emailVerified?: boolean; hasPassword?: boolean };
  children: React.ReactNode;
}) {
  const pathname = usePathname();
  // below lg the sidebar is a drawer behind a Menu button, so a phone's page keeps its width
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const brand = (
    <>
      <div className="grid size-7 place-items-center rounded-md bg-brand-600 text-xs font-bold text-white">
        PB
      </div>
      <Link
        href="/runs"
        onClick={close}
        className={cn('rounded text-base font-semibold tracking-tight', focusRing)}
      >
        <span className="text-brand-600">Pool</span>Bench
      </Link>
    </>
  );
  return (
    <div className="min-h-screen lg:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-slate-200 bg-white px-3 lg:hidden">
        <button
          type="button"
          aria-expanded={open}
          aria-controls="sidebar"
          onClick={() => setOpen((o) => !o)}
          className={cn(
            'flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50',
            focusRing,
          )}
        >
          <Menu className="size-5" aria-hidden />
          Menu
        </button>
        {brand}
      </header>
      {open ? (
        <div className="fixed inset-0 z-30 bg-slate-900/30 lg:hidden" onClick={close} aria-hidden />
      ) : null}
      <aside
        id="sidebar"
        className={cn(
          'w-60 shrink-0 border-r border-slate-200 bg-white',
          open ? 'fixed inset-y-0 left-0 z-40 shadow-xl' : 'hidden',
          'lg:static lg:z-auto lg:block lg:shadow-none',
        )}
        onKeyDown={(e) => {
          if (e.key === 'Escape') close();
        }}
      >
        <div className="sticky top-0 flex h-screen flex-col">
          <div className="flex h-14 items-center gap-2 border-b border-slate-100 px-4">{brand}</div>
          <div className="px-3 pt-3">
            <TeamSwitcher />
          </div>
          <nav
            aria-label="Main"
            className="flex-1 space-y-0.5 overflow-y-auto px-3 py-3"
            onClick={(e) => {
              // a link followed closes the drawer
              if (e.target instanceof Element && e.target.closest('a')) close();
            }}
          >
            {NAV.map(({ href, label, icon: Icon }) => {
              const active = pathname === href || pathname.startsWith(`${href}/`);
              return (
                <Link
                  key={href}
                  href={href}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'flex items-center gap-2.5 rounded-md px-2.5 py-2 text-sm font-medium transition-colors',
                    focusRing,
                    active
                      ? 'bg-brand-50 text-brand-700'
                      : 'text-slate-600 hover:bg-slate-50 hover:text-slate-900',
                  )}
                >
                  <Icon
                    className={cn('size-4', active ? 'text-brand-600' : 'text-slate-400')}
                    aria-hidden
                  />
                  {label}
                </Link>
              );
            })}
          </nav>
          <div className="border-t border-slate-100 p-3">
            <UserMenu user={user} />
          </div>
        </div>
      </aside>
      <main id="main" className="min-w-0 flex-1">
        <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
          <VerifyEmailBanner initial={user} />
          <NoPasswordBanner initial={user} />
          {children}
        </div>
      </main>
    </div>
  );
}
