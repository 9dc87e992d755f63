'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Activity } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { RUN_STATUSES, TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/contracts';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import {
  formatDuration,
  formatMs,
  formatNumber,
  formatPercent,
  formatRelative,
} from '~/lib/format';
import { Button, ButtonLink } from '~/components/ui/button';
import { RoleGated } from '~/components/ui/role-gated';
import { Alert, EmptyState, LoadingBlock } from '~/components/ui/feedback';
import { Input, Label, Select } from '~/components/ui/form';
import { PageHeader } from '~/components/ui/page-header';
import { Table, Td, Th } from '~/components/ui/table';
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

  return (
    <>
      <PageHeader
        title="Runs"
        description="Every k6 execution, newest first. Status updates live while runs are active."
        actions={
          <RoleGated min="member" what="start experiments" label="New experiment">
            <ButtonLink href="/experiments/new">New experiment</ButtonLink>
          </RoleGated>
        }
      />
      <div
        className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 lg:grid-cols-6"
        role="search"
        aria-label="Filter runs"
      >
        <div>
          <Label htmlFor="f-target" className="mb-1 text-xs text-slate-500">
            Target
          </Label>
          <Select
            id="f-target"
            value={f.targetId ?? ''}
            onChange={(e) => set('targetId', e.target.value)}
          >
            <option value="">All targets</option>
            {targets.data?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="f-config" className="mb-1 text-xs text-slate-500">
            Pool config
          </Label>
          <Select
            id="f-config"
            value={f.poolConfigId ?? ''}
            onChange={(e) => set('poolConfigId', e.target.value)}
            disabled={!f.targetId}
            title={f.targetId ? undefined : 'Choose a target first'}
          >
            <option value="">All configs</option>
            {configs.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="f-scenario" className="mb-1 text-xs text-slate-500">
            Scenario
          </Label>
          <Select
            id="f-scenario"
            value={f.scenarioId ?? ''}
            onChange={(e) => set('scenarioId', e.target.value)}
          >
            <option value="">All scenarios</option>
            {scenarios.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="f-status" className="mb-1 text-xs text-slate-500">
            Status
          </Label>
          <Select
            id="f-status"
            value={sp.get('status') ?? ''}
            onChange={(e) => set('status', e.target.value)}
          >
            <option value="">Any status</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="f-from" className="mb-1 text-xs text-slate-500">
            From (UTC)
          </Label>
          <Input
            id="f-from"
            type="date"
            value={sp.get('from') ?? ''}
            onChange={(e) => set('from', e.target.value)}
          />
        </div>
        <div>
          <Label htmlFor="f-to" className="mb-1 text-xs text-slate-500">
            To (UTC)
          </Label>
          <Input
            id="f-to"
            type="date"
            value={sp.get('to') ?? ''}
            onChange={(e) => set('to', e.target.value)}
          />
        </div>
      </div>
      {runs.isPending ? <LoadingBlock rows={6} /> : null}
      {runs.isError ? (
        <Alert tone="error" title="Could not load runs">
          {messageOf(runs.error)}
        </Alert>
      ) : null}
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
        <Table>
          <thead>
            <tr>
              <Th>Status</Th>
              <Th className="whitespace-nowrap">Pool config</Th>
              <Th>Scenario / experiment</Th>
              <Th className="text-right">req/s</Th>
              <Th className="text-right">p95</Th>
              <Th className="text-right">Errors</Th>
              <Th className="text-right">Duration</Th>
              <Th>Created</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
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
                <Td
                  className="max-w-56 truncate font-medium text-slate-900"
                  title={r.poolConfigName}
                >
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
          </tbody>
        </Table>
      ) : null}
      {runs.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button
            variant="secondary"
            onClick={() => void runs.fetchNextPage()}
            loading={runs.isFetchingNextPage}
          >
            Load older runs
          </Button>
        </div>
      ) : null}
    </>
  );
}
