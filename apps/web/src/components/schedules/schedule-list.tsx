'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, CalendarClock, Pause, Pencil, Play, Zap } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import Link from 'next/link';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { formatDateTime, formatRelative } from '~/lib/format';
import { plural } from '~/lib/plural';
import { Badge, type BadgeTone } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { GatedButtonLink } from '~/components/ui/role-gated';
import { Alert, EmptyState } from '~/components/ui/feedback';
import { QueryState } from '~/components/ui/query-state';
import { PageHeader } from '~/components/ui/page-header';
import { Table, Td } from '~/components/ui/table';
import { RowDeleteButton } from '~/components/ui/row-delete-button';
import { ScheduleEditDialog } from './schedule-edit-dialog';
import { ScheduleNotifyDialog } from './schedule-notify-dialog';
import { GetStartedLink } from '~/components/onboarding/get-started-link';

const LAST_TONE: Record<string, BadgeTone> = {
  completed: 'green',
  failed: 'red',
  canceled: 'neutral',
  running: 'blue',
  queued: 'neutral',
};
const OUTCOME: Record<string, { tone: BadgeTone; text: string }> = {
  regression: { tone: 'red', text: 'regression' },
  pass: { tone: 'green', text: 'no regression' },
  'no-baseline': { tone: 'amber', text: 'no baseline' },
  'suspected-regression': { tone: 'amber', text: 'suspected regression' },
  incomplete: { tone: 'amber', text: 'incomplete' },
};

type Notification = NonNullable<
  NonNullable<ReturnType<typeof useScheduleList>['data']>[number]['lastNotification']
>;

function useScheduleList() {
  const trpc = useTRPC();
  return useQuery(trpc.schedule.list.queryOptions(undefined, { refetchInterval: 10_000 }));
}

/** The last firing against its baseline, and what became of its webhook call. */
function NotificationLine({ n }: { n: Notification }) {
  const o = OUTCOME[n.outcome] ?? { tone: 'neutral' as const, text: n.outcome };
  const delivery =
    n.status === 'delivered'
      ? `webhook delivered${n.lastStatusCode ? ` (HTTP ${n.lastStatusCode})` : ''}`
      : n.status === 'failed'
        ? `webhook failed after ${plural(n.attempts, 'attempt')}: ${n.lastError ?? ''}`
        : n.status === 'pending' || n.status === 'sending'
          ? n.attempts > 0
            ? `webhook retrying (${plural(n.attempts, 'attempt')}): ${n.lastError ?? ''}`
            : 'webhook sending…'
          : null;
  return (
    <div className="mt-1" data-testid="schedule-notification">
      <Badge tone={o.tone}>{o.text}</Badge>
      {delivery ? (
        <span className={n.status === 'failed' ? 'ml-2 text-red-700' : 'ml-2 text-slate-600'}>
          {delivery}
        </span>
      ) : null}
    </div>
  );
}

export function ScheduleList() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const router = useRouter();
  const list = useScheduleList();
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.schedule.list.queryKey() });
  const pause = useMutation(trpc.schedule.pause.mutationOptions({ onSuccess: refresh }));
  const resume = useMutation(trpc.schedule.resume.mutationOptions({ onSuccess: refresh }));
  const del = useMutation(trpc.schedule.delete.mutationOptions({ onSuccess: refresh }));
  const runNow = useMutation(
    trpc.schedule.runNow.mutationOptions({
      onSuccess: (r) => router.push(`/experiments/${r.experimentId}`),
    }),
  );
  const mErr = pause.error ?? resume.error ?? del.error ?? runNow.error;
  const [editing, setEditing] = useState<string | null>(null);
  const edited = list.data?.find((s) => s.id === editing);
  const [notifying, setNotifying] = useState<string | null>(null);
  const notified = list.data?.find((s) => s.id === notifying);
  const action = (
    <GatedButtonLink min="member" what="schedule experiments" href="/experiments/new?when=schedule">
      Schedule an experiment
    </GatedButtonLink>
  );
  return (
    <>
      <PageHeader
        title="Schedules"
        description="Experiments that start on a cron, e.g. every night, to catch regressions. Times are shown in UTC."
        actions={action}
      />
      {mErr ? (
        <Alert tone="error" className="mb-4">
          {messageOf(mErr)}
        </Alert>
      ) : null}
      <QueryState query={list} />
      {list.data?.length === 0 ? (
        <EmptyState icon={CalendarClock} title="No schedules" action={action}>
          In the experiment form, choose “On a schedule” and give a cron expression.
          <GetStartedLink />
        </EmptyState>
      ) : null}
      {list.data && list.data.length > 0 ? (
        <Table
          head={[
            'Schedule',
            'When',
            'Next runs',
            'Last experiment',
            { label: 'Actions', className: 'text-right' },
          ]}
        >
          {list.data.map((s) => (
            <tr key={s.id} className="align-top">
              {/* the name and its summary lines wrap, so the Actions column stays in view */}
              <Td className="min-w-56 whitespace-normal font-medium text-slate-900">
                {s.name}{' '}
                {s.paused ? (
                  <Badge tone="amber" className="ml-1">
                    paused
                  </Badge>
                ) : (
                  <Badge tone="green" className="ml-1">
                    active
                  </Badge>
                )}
                <div className="mt-0.5 text-xs font-normal text-slate-500">
                  {s.sourceExperiment.target.name} ·{' '}
                  {plural(s.sourceExperiment._count.poolConfigs, 'config')} ×{' '}
                  {plural(s.sourceExperiment._count.scenarios, 'scenario')} ×{' '}
                  {plural(s.sourceExperiment.repeats, 'repeat')}
                </div>
                <div
                  className="mt-0.5 text-xs font-normal text-slate-500"
                  data-testid="schedule-notify-summary"
                >
                  {s.baselineName ? (
                    <>
                      vs baseline <code>{s.baselineName}</code>
                    </>
                  ) : (
                    'no baseline comparison'
                  )}
                  {s.webhook
                    ? ` · ${s.webhook.format === 'slack' ? 'Slack' : 'webhook'} to ${s.webhook.host} ${s.notifyOn === 'always' ? 'after every firing' : 'on a regression'}`
                    : ''}
                </div>
              </Td>
              <Td className="whitespace-normal">
                <code className="whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 text-xs">
                  {s.cron}
                </code>
                <div className="mt-1 max-w-64 text-xs text-slate-600">
                  {s.preview.description ?? s.preview.error}
                </div>
              </Td>
              <Td className="text-xs text-slate-600">
                {s.paused ? '—' : s.preview.next.map((n) => <div key={n}>{formatDateTime(n)}</div>)}
              </Td>
              <Td className="min-w-32 whitespace-normal text-xs">
                {s.lastExperiment ? (
                  <>
                    <Link
                      className="text-brand-700 hover:underline"
                      href={`/experiments/${s.lastExperiment.id}`}
                    >
                      {formatRelative(s.lastExperiment.createdAt)}
                    </Link>
                    <span data-testid="schedule-last-outcome">
                      <Badge
                        tone={LAST_TONE[s.lastExperiment.status] ?? 'neutral'}
                        className="ml-2"
                      >
                        {s.lastExperiment.status}
                      </Badge>
                    </span>
                  </>
                ) : (
                  <span className="text-slate-500">not fired yet</span>
                )}
                {s.lastNotification ? <NotificationLine n={s.lastNotification} /> : null}
              </Td>
              <Td className="text-right">
                {can('member') ? (
                  <div className="ml-auto flex max-w-60 flex-wrap justify-end gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setEditing(s.id)}
                      aria-label={`Edit ${s.name}`}
                    >
                      <Pencil className="size-3.5" /> Edit
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setNotifying(s.id)}
                      aria-label={`Notifications of ${s.name}`}
                    >
                      <Bell className="size-3.5" /> Notify
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      loading={runNow.isPending && runNow.variables?.id === s.id}
                      onClick={() => runNow.mutate({ id: s.id })}
                      aria-label={`Run ${s.name} now`}
                    >
                      <Zap className="size-3.5" /> Run now
                    </Button>
                    {s.paused ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => resume.mutate({ id: s.id })}
                        aria-label={`Resume ${s.name}`}
                      >
                        <Play className="size-3.5" /> Resume
                      </Button>
                    ) : (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => pause.mutate({ id: s.id })}
                        aria-label={`Pause ${s.name}`}
                      >
                        <Pause className="size-3.5" /> Pause
                      </Button>
                    )}
                    <RowDeleteButton
                      label={`Delete ${s.name}`}
                      question={`Delete the schedule ${s.name}? Experiments it started stay.`}
                      onConfirm={() => del.mutate({ id: s.id })}
                    />
                  </div>
                ) : null}
              </Td>
            </tr>
          ))}
        </Table>
      ) : null}
      {edited ? (
        <ScheduleEditDialog
          key={edited.id}
          schedule={{
            id: edited.id,
            name: edited.name,
            cron: edited.cron,
            timezone: edited.timezone,
            repeats: edited.sourceExperiment.repeats,
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {notified ? (
        <ScheduleNotifyDialog
          key={notified.id}
          schedule={{
            id: notified.id,
            name: notified.name,
            targetId: notified.sourceExperiment.target.id,
            baselineName: notified.baselineName,
            notifyOn: notified.notifyOn,
            settleUpToRepeats: notified.settleUpToRepeats,
            webhook: notified.webhook,
          }}
          onClose={() => setNotifying(null)}
        />
      ) : null}
    </>
  );
}
