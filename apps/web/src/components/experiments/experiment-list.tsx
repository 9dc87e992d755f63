'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { FlaskConical, Plus } from 'lucide-react';
import Link from 'next/link';
import { useTRPC } from '~/lib/trpc/react';
import { formatRelative } from '~/lib/format';
import { plural } from '~/lib/plural';
import { Badge, type BadgeTone } from '~/components/ui/badge';
import { GatedButtonLink } from '~/components/ui/role-gated';
import { EmptyState } from '~/components/ui/feedback';
import { QueryState } from '~/components/ui/query-state';
import { PageHeader } from '~/components/ui/page-header';
import { Table, Td } from '~/components/ui/table';
import { LoadMore } from '~/components/ui/load-more';
import { ProgressBar } from './progress-bar';
import { CiJobLink } from './ci-job-link';
import { GetStartedLink } from '~/components/onboarding/get-started-link';

export function ExperimentList() {
  const trpc = useTRPC();
  const q = useInfiniteQuery(
    trpc.experiment.list.infiniteQueryOptions(
      { limit: 25 },
      {
        getNextPageParam: (last) => last.nextCursor,
        refetchInterval: (query) => {
          const items = query.state.data?.pages.flatMap((p) => p.items) ?? [];
          return items.some((e) => e.progress.done < e.progress.total) ? 3000 : false;
        },
      },
    ),
  );
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const action = (
    <GatedButtonLink min="member" what="start experiments" href="/experiments/new" icon={Plus}>
      New experiment
    </GatedButtonLink>
  );
  return (
    <>
      <PageHeader
        title="Experiments"
        description="A matrix of pool configs × scenarios × repeats, run interleaved on the worker fleet."
        actions={action}
      />
      <QueryState query={q} />
      {q.isSuccess && items.length === 0 ? (
        <EmptyState icon={FlaskConical} title="No experiments yet" action={action}>
          Pick a target, two or more pool configs and a scenario, and PoolBench runs them
          interleaved with repeats.
          <GetStartedLink />
        </EmptyState>
      ) : null}
      {items.length > 0 ? (
        <Table head={['Experiment', 'Target', 'Matrix', 'Progress', 'Outcome', 'Created']}>
          {items.map((e) => {
            const active = e.progress.done < e.progress.total;
            return (
              <tr key={e.id} className="hover:bg-slate-50/60">
                {/* name, target, matrix and outcome wrap, so the table fits 1280 px without scrolling */}
                <Td className="min-w-48 whitespace-normal font-medium text-slate-900">
                  <Link
                    href={`/experiments/${e.id}`}
                    className="hover:text-brand-700 hover:underline"
                  >
                    {e.name}
                  </Link>
                  {e.scheduleId ? (
                    <Badge tone="blue" className="ml-2">
                      scheduled
                    </Badge>
                  ) : null}
                  {active ? (
                    <Badge tone="blue" className="ml-2">
                      in progress
                    </Badge>
                  ) : null}
                  {e.progress.byStatus.thresholds_failed ? (
                    <span data-testid="experiment-thresholds-failed">
                      <Badge tone="red" className="ml-2">
                        {e.progress.byStatus.thresholds_failed} thresholds failed
                      </Badge>
                    </span>
                  ) : null}
                  {e.commit || e.branch ? (
                    <div
                      className="mt-0.5 text-xs font-normal text-slate-500"
                      data-testid="experiment-ci-origin"
                    >
                      {e.branch ? <span>{e.branch}</span> : null}
                      {e.commit ? (
                        <span className="ml-1 font-mono">@{e.commit.slice(0, 10)}</span>
                      ) : null}
                      <CiJobLink url={e.buildUrl} className="ml-2" />
                    </div>
                  ) : null}
                </Td>
                <Td className="whitespace-normal">{e.target.name}</Td>
                <Td className="whitespace-normal text-xs text-slate-600">
                  {plural(e.poolConfigCount, 'config')} × {plural(e.scenarioCount, 'scenario')} ×{' '}
                  {plural(e.repeats, 'repeat')}
                </Td>
                <Td>
                  <ProgressBar byStatus={e.progress.byStatus} total={e.progress.total} />
                  {!active && (e.progress.byStatus.failed ?? 0) > 0 ? (
                    <span className="sr-only">some runs failed</span>
                  ) : null}
                </Td>
                <Td className="min-w-28 whitespace-normal" data-testid="experiment-outcome">
                  <Outcome status={e.status} active={active} hypotheses={e.hypotheses} />
                </Td>
                <Td className="text-xs text-slate-500">{formatRelative(e.createdAt)}</Td>
              </tr>
            );
          })}
        </Table>
      ) : null}
      <LoadMore query={q} />
    </>
  );
}

const STATUS_TONE: Record<string, BadgeTone> = {
  completed: 'green',
  failed: 'red',
  canceled: 'neutral',
  running: 'blue',
  queued: 'neutral',
};

/** The experiment's outcome: its status, and how its pre-registered hypotheses came out. */
function Outcome({
  status,
  active,
  hypotheses: h,
}: {
  status: string;
  active: boolean;
  hypotheses: {
    total: number;
    holds: number;
    doesNotHold: number;
    unresolved: number;
    pending: number;
  };
}) {
  return (
    <div className="flex flex-wrap items-center gap-1">
      {active ? null : <Badge tone={STATUS_TONE[status] ?? 'neutral'}>{status}</Badge>}
      {h.holds ? (
        <Badge tone="green">
          {h.holds} {h.holds === 1 ? 'claim holds' : 'claims hold'}
        </Badge>
      ) : null}
      {h.doesNotHold ? <Badge tone="red">{h.doesNotHold} not holding</Badge> : null}
      {h.unresolved ? <Badge tone="amber">{h.unresolved} unresolved</Badge> : null}
      {h.pending && !active ? <Badge tone="neutral">{h.pending} pending</Badge> : null}
    </div>
  );
}
