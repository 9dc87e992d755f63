'use client';

import { useQuery } from '@tanstack/react-query';
import { Plus, Server } from 'lucide-react';
import Link from 'next/link';
import { useTRPC } from '~/lib/trpc/react';
import { useRole } from '~/lib/hooks/use-role';
import { Badge } from '~/components/ui/badge';
import { GatedButtonLink } from '~/components/ui/role-gated';
import { EmptyState } from '~/components/ui/feedback';
import { QueryState } from '~/components/ui/query-state';
import { PageHeader } from '~/components/ui/page-header';
import { GetStartedLink } from '~/components/onboarding/get-started-link';

export function TargetList() {
  const trpc = useTRPC();
  const { can } = useRole();
  const targets = useQuery(trpc.target.list.queryOptions());
  const newButton = (
    <GatedButtonLink min="admin" what="create targets" href="/targets/new" icon={Plus}>
      New target
    </GatedButtonLink>
  );
  return (
    <>
      <PageHeader
        title="Targets"
        description="The systems under test. Managed targets are started by PoolBench for each run; URL targets are your own services."
        actions={newButton}
      />
      <QueryState query={targets} errorTitle="Could not load targets" />
      {targets.data?.length === 0 ? (
        <EmptyState icon={Server} title="No targets yet" action={newButton}>
          {can('admin')
            ? 'Start with the managed lab target: PoolBench builds and starts it for every run with the pool config applied.'
            : 'Ask an admin of this team to add a target.'}
          <GetStartedLink />
        </EmptyState>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {targets.data?.map((t) => {
          const rd = t.requestDefaults;
          return (
            <Link
              key={t.id}
              href={`/targets/${t.id}`}
              className="group rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-300 hover:shadow focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <div className="flex items-start justify-between gap-2">
                <h2 className="font-semibold text-slate-900 group-hover:text-brand-700">
                  {t.name}
                </h2>
                <Badge tone={t.kind === 'managed' ? 'violet' : 'blue'}>
                  {t.kind === 'managed' ? 'Managed' : 'URL'}
                </Badge>
              </div>
              <p className="mt-2 truncate font-mono text-xs text-slate-500">
                {rd.method ?? 'GET'} {t.kind === 'url' ? `${t.baseUrls[0] ?? ''}` : ''}
                {rd.path ?? '/'}
              </p>
              <div className="mt-4 flex gap-4 text-xs text-slate-500">
                <span>
                  <strong className="text-slate-800">{t.poolConfigCount}</strong> pool configs
                </span>
                <span>
                  <strong className="text-slate-800">{t.runCount}</strong> runs
                </span>
              </div>
            </Link>
          );
        })}
      </div>
    </>
  );
}
