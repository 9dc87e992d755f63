'use client';

import {
  Gauge,
  Activity,
  CalendarClock,
  FlaskConical,
  GitCompareArrows,
  Layers,
  LineChart,
  Rocket,
  Server,
  Settings,
  Sprout,
} from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
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
  user: { name: string; email: string };
  children: React.ReactNode;
}) {
  const pathname = usePathname();
  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <aside className="w-60 shrink-0 border-r border-slate-200 bg-white">
        <div className="sticky top-0 flex h-screen flex-col">
          <div className="flex h-14 items-center gap-2 border-b border-slate-100 px-4">
            <div className="grid size-7 place-items-center rounded-md bg-brand-600 text-xs font-bold text-white">
              PB
            </div>
            <Link
              href="/runs"
              className={cn('rounded text-base font-semibold tracking-tight', focusRing)}
            >
              <span className="text-brand-600">Pool</span>Bench
            </Link>
          </div>
          <div className="px-3 pt-3">
            <TeamSwitcher />
          </div>
          <nav aria-label="Main" className="flex-1 space-y-0.5 px-3 py-3">
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
        <div className="mx-auto max-w-7xl px-6 py-8 lg:px-8">
          <VerifyEmailBanner />
          <NoPasswordBanner />
          {children}
        </div>
      </main>
    </div>
  );
}
