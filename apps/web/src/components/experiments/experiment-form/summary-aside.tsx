'use client';

import { CalendarClock, Play } from 'lucide-react';
import { formatDuration } from '~/lib/format';
import { messageOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';
import { NoWorkerAlert } from '../no-worker-alert';

/** The run count, the estimated duration and the submit button, beside the form. */
export function SummaryAside({
  runCount,
  estimate,
  chosenConfigs,
  scenarioIds,
  repeats,
  presetId,
  mode,
  pending,
}: {
  runCount: number | null;
  estimate: {
    data?: { totalMs: number; loadMs: number; overheadMs: number };
    isError: boolean;
    error: unknown;
  };
  chosenConfigs: string[];
  scenarioIds: string[];
  repeats: number | undefined;
  presetId: string | null;
  mode: 'now' | 'schedule';
  pending: boolean;
}) {
  const { can } = useRole();
  return (
    <aside className="lg:sticky lg:top-6 lg:self-start">
      <Card>
        <CardHeader title="Summary" />
        <CardBody className="space-y-4">
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-xs uppercase tracking-wide text-slate-500">Runs</dt>
              <dd className="text-2xl font-semibold tabular-nums" data-testid="run-count">
                {runCount ?? '—'}
              </dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-slate-500">Est. duration</dt>
              <dd className="text-2xl font-semibold tabular-nums" data-testid="estimated-duration">
                {estimate.data &&
                chosenConfigs.length &&
                scenarioIds.length &&
                repeats !== undefined
                  ? formatDuration(estimate.data.totalMs)
                  : '—'}
              </dd>
            </div>
          </dl>
          {estimate.data && chosenConfigs.length && scenarioIds.length ? (
            <p className="text-xs text-slate-500">
              {formatDuration(estimate.data.loadMs)} of load plus about 5 s set-up per run (
              {formatDuration(estimate.data.overheadMs)}).
            </p>
          ) : null}
          {chosenConfigs.length === 0 || scenarioIds.length === 0 ? (
            <p className="text-xs text-slate-500">
              Choose at least one pool config and one scenario.
            </p>
          ) : null}
          {estimate.isError ? (
            <p className="text-xs text-red-700">{messageOf(estimate.error)}</p>
          ) : null}
          {presetId ? <Badge tone="violet">From preset {presetId}</Badge> : null}
          {!can('member') ? (
            <Alert tone="warning">
              Viewers cannot start runs. Ask an admin for the member role.
            </Alert>
          ) : null}
          {can('member') ? <NoWorkerAlert when={mode === 'now' ? 'launch' : 'schedule'} /> : null}
          {can('member') ? (
            <Button type="submit" className="w-full" size="lg" loading={pending}>
              {mode === 'now' ? (
                <>
                  <Play className="size-4" /> Run experiment
                </>
              ) : (
                <>
                  <CalendarClock className="size-4" /> Save schedule
                </>
              )}
            </Button>
          ) : null}
        </CardBody>
      </Card>
    </aside>
  );
}
