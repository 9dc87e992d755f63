'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Activity } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { RUN_STATUSES, TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/contracts';
import { useTRPC } from '~/lib/trpc/react';
import {
  formatDuration,
  formatMs,
  formatNumber,
  formatPercent,
  formatRelative,
} from '~/lib/format';
import { Button, ButtonLink } from '~/components/ui/button';
import { GatedButtonLink } from '~/components/ui/role-gated';
import { EmptyState } from '~/components/ui/feedback';
import { QueryState } from '~/components/ui/query-state';
import { byIdName, Input, Label, Options, Select } from '~/components/ui/form';
import { PageHeader } from '~/components/ui/page-header';
import { Table, Td } from '~/components/ui/table';
import { LoadMore } from '~/components/ui/load-more';
import { OnboardingSteps } from '~/components/onboarding/onboarding-steps';
import { RunStatusBadge } from './run-status-badge';

const STATUS_LABEL: Record<RunStatus, string> = {
  queued: 'Queued',
  preparing: 'Preparing',
  running: 'Running',
  succeeded: 'Succeeded',
  thresholds_failed: 'Thresholds failed',
  failed: 'Failed',
  canceled: 'Canceled',
  timed_out: 'Timed out',
  aborted_system: 'Aborted',
};

function elapsed(r: { startedAt: Date | null; finishedAt: Date | null; status: string }) {
  if (!r.startedAt) return null;
  return (
    (r.finishedAt ? new Date(r.finishedAt).getTime() : Date.now()) - new Date(r.startedAt).getTime()
  );
}

/** Filters live in the URL, so a filtered list can be shared and survives reloads. */
export function RunList() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const sp = useSearchParams();
  const f = {
    targetId: sp.get('targetId') || null,
    poolConfigId: sp.get('poolConfigId') || null,
    scenarioId: sp.get('scenarioId') || null,
    status: sp.get('status') ? [sp.get('status') as RunStatus] : null,
    from: sp.get('from') ? new Date(`${sp.get('from')}T00:00:00Z`).toISOString() : null,
    to: sp.get('to')
      ? new Date(new Date(`${sp.get('to')}T00:00:00Z`).getTime() + 86_400_000).toISOString()
      : null,
  };
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(sp.toString());
    if (v) next.set(k, v);
    else next.delete(k);
    if (k === 'targetId') next.delete('poolConfigId');
    router.replace(`${pathname}?${next.toString()}`);
  };
  const targets = useQuery(trpc.target.list.queryOptions());
  const configs = useQuery({
    ...trpc.poolConfig.list.queryOptions({ targetId: f.targetId ?? undefined }),
    enabled: Boolean(f.targetId),
  });
  const scenarios = useQuery(trpc.scenario.list.queryOptions());
  const runs = useInfiniteQuery(
    trpc.run.list.infiniteQueryOptions(
      { ...f, limit: 25 },
      {
        getNextPageParam: (last) => last.nextCursor,
        // Live badges: poll while any visible run is still moving.
        refetchInterval: (q) =>
          (q.state.data?.pages.flatMap((p) => p.items) ?? []).some(
            (r) => !TERMINAL_RUN_STATUSES.includes(r.status as RunStatus),
          )
            ? 3000
            : false,
      },
    ),
  );
  const items = runs.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = Object.values(f).some(Boolean);
  const filters = [
    filterOf('f-target', 'Target', 'targetId', 'All targets', targets.data),
    filterOf('f-config', 'Pool config', 'poolConfigId', 'All configs', configs.data, true),
    filterOf('f-scenario', 'Scenario', 'scenarioId', 'All scenarios', scenarios.data),
    filterOf(
      'f-status',
      'Status',
      'status',
      'Any status',
      RUN_STATUSES.map((s) => ({ id: s, name: STATUS_LABEL[s] })),
    ),
  ];

  return (
    <>
      <PageHeader
        title="Runs"
        description="Every k6 execution, newest first. Status updates live while runs are active."
        actions={
          <GatedButtonLink min="member" what="start experiments" href="/experiments/new">
            New experiment
          </GatedButtonLink>
        }
      />
      <div
        className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 lg:grid-cols-6"
        role="search"
        aria-label="Filter runs"
      >
        {filters.map(({ param, needsTarget, ...filter }) => (
          <FilterSelect
            key={param}
            {...filter}
            value={sp.get(param)}
            onChange={(v) => set(param, v)}
            disabled={needsTarget && !f.targetId}
            title={needsTarget && !f.targetId ? 'Choose a target first' : undefined}
          />
        ))}
        {(['from', 'to'] as const).map((k) => (
          <FilterField key={k} id={`f-${k}`} label={k === 'from' ? 'From (UTC)' : 'To (UTC)'}>
            <Input
              id={`f-${k}`}
              type="date"
              value={sp.get(k) ?? ''}
              onChange={(e) => set(k, e.target.value)}
            />
          </FilterField>
        ))}
      </div>
      <QueryState query={runs} rows={6} errorTitle="Could not load runs" />
      {runs.isSuccess && items.length === 0 && !filtered ? <OnboardingSteps /> : null}
      {runs.isSuccess && items.length === 0 ? (
        <EmptyState
          icon={Activity}
          title={filtered ? 'No runs match these filters' : 'No runs yet'}
          action={
            filtered ? (
              <Button variant="secondary" onClick={() => router.replace(pathname)}>
                Clear filters
              </Button>
            ) : (
              <ButtonLink href="/experiments/new">Start an experiment</ButtonLink>
            )
          }
        >
          {filtered
            ? 'Try a wider date range or another status.'
            : 'Runs appear here as soon as an experiment is started.'}
        </EmptyState>
      ) : null}
      {items.length > 0 ? (
        <Table
          head={[
            'Status',
            { label: 'Pool config', className: 'whitespace-nowrap' },
            'Scenario / experiment',
            { label: 'req/s', className: 'text-right' },
            { label: 'p95', className: 'text-right' },
            { label: 'Errors', className: 'text-right' },
            { label: 'Duration', className: 'text-right' },
            'Created',
          ]}
        >
          {items.map((r) => (
            <tr
              key={r.id}
              className="cursor-pointer hover:bg-slate-50/70"
              onClick={() => router.push(`/runs/${r.id}`)}
            >
              <Td>
                <Link
                  href={`/runs/${r.id}`}
                  className="rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                  aria-label={`Open run ${r.poolConfigName} / ${r.scenarioName} #${r.repeatIndex + 1}`}
                  onClick={(e) => e.stopPropagation()}
                >
                  <RunStatusBadge status={r.status as RunStatus} />
                </Link>
              </Td>
              <Td className="max-w-56 truncate font-medium text-slate-900" title={r.poolConfigName}>
                {r.poolConfigName}{' '}
                <span className="text-xs font-normal text-slate-500">#{r.repeatIndex + 1}</span>
              </Td>
              <Td className="max-w-64">
                <div className="truncate" title={r.scenarioName}>
                  {r.scenarioName}
                </div>
                <Link
                  href={`/experiments/${r.experiment.id}`}
                  className="block truncate text-xs text-slate-500 hover:text-brand-700 hover:underline"
                  title={r.experiment.name}
                  onClick={(e) => e.stopPropagation()}
                >
                  {r.experiment.name}
                </Link>
              </Td>
              <Td className="text-right tabular-nums">{formatNumber(r.rps, 0)}</Td>
              <Td className="text-right tabular-nums">{formatMs(r.p95Ms)}</Td>
              <Td className="text-right tabular-nums">{formatPercent(r.errorRate)}</Td>
              <Td className="text-right tabular-nums">{formatDuration(elapsed(r))}</Td>
              <Td className="text-xs text-slate-500">{formatRelative(r.createdAt)}</Td>
            </tr>
          ))}
        </Table>
      ) : null}
      <LoadMore query={runs}>Load older runs</LoadMore>
    </>
  );
}

/** A select filter: its field id, label, URL parameter, the "all" choice and the items to pick. */
const filterOf = (
  id: string,
  label: string,
  param: string,
  any: string,
  items: readonly { id: string; name: string }[] | undefined,
  needsTarget = false,
) => ({ id, label, param, any, items, needsTarget });

function FilterField({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <div>
      <Label htmlFor={id} className="mb-1 text-xs text-slate-500">
        {label}
      </Label>
      {children}
    </div>
  );
}

/** A filter of the list: one of `items` by id, or `any` (the empty value) for all of them. */
function FilterSelect({
  id,
  label,
  value,
  onChange,
  any,
  items,
  disabled,
  title,
}: {
  id: string;
  label: string;
  value: string | null | undefined;
  onChange: (value: string) => void;
  any: string;
  items: readonly { id: string; name: string }[] | undefined;
  disabled?: boolean;
  title?: string;
}) {
  return (
    <FilterField id={id} label={label}>
      <Select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        title={title}
      >
        <option value="">{any}</option>
        <Options items={items} {...byIdName} />
      </Select>
    </FilterField>
  );
}
