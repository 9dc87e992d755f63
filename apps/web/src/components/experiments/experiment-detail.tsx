'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Square } from 'lucide-react';
import Link from 'next/link';
import { isMeasuredRunStatus, TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/contracts';
import { plural } from '~/lib/plural';
import { useTRPC } from '~/lib/trpc/react';
import { useRole } from '~/lib/hooks/use-role';
import { formatDateTime, formatMs, formatNumber } from '~/lib/format';
import { ConfirmButton } from '~/components/ui/confirm-button';
import { NotFoundOrElsewhere } from '~/components/teams/not-found-or-elsewhere';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { ErrorAlert } from '~/components/ui/query-state';
import { PageHeader } from '~/components/ui/page-header';
import { RunStatusBadge } from '~/components/runs/run-status-badge';
import { ExperimentActions } from '~/components/compare/detail-actions';
import { ScrollX } from '~/components/ui/scroll-x';
import { ProgressBar } from './progress-bar';
import { NoWorkerAlert } from './no-worker-alert';
import { AgainLinks } from './again-links';
import { HypothesesCard } from './hypotheses-card';
import { SequentialCard } from './sequential-card';
import { AdvisorCard } from '~/components/advisor/advisor-card';
import { experimentPollMs } from './experiment-poll';

/** 1st, 2nd, 3rd, 4th …: a run's place in its round (an experiment has at most 20 configs). */
const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

export function ExperimentDetail({
  id,
  queueUnavailable = false,
}: {
  id: string;
  queueUnavailable?: boolean;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const q = useQuery({
    ...trpc.experiment.get.queryOptions({ id }),
    refetchInterval: (query) => experimentPollMs(query.state.data),
  });
  // one call for the whole experiment: queued runs at once, active ones through their cancel flag
  const cancel = useMutation(
    trpc.experiment.cancel.mutationOptions({
      onSettled: () => qc.invalidateQueries({ queryKey: trpc.experiment.get.queryKey({ id }) }),
    }),
  );
  if (q.isPending) return <LoadingBlock rows={6} />;
  if (q.isError)
    return (
      <NotFoundOrElsewhere kind="experiment" id={id} title="Experiment not found" error={q.error} />
    );
  const e = q.data;
  const active = e.runs.filter((r) => !TERMINAL_RUN_STATUSES.includes(r.status as RunStatus));
  return (
    <>
      <PageHeader
        crumbs={[{ href: '/experiments', label: 'Experiments' }]}
        title={e.name}
        description={`${e.target.name} · ${plural(e.poolConfigs.length, 'pool config')} × ${plural(e.scenarios.length, 'scenario')} × ${plural(e.repeats, 'repeat')}, ${e.order} · created ${formatDateTime(e.createdAt)}`}
        actions={
          <>
            <ExperimentActions e={e} />
            {/* an advisor plans its own runs: it is asked again on the Advisor page */}
            {can('member') && !e.advisor && e.runs.length > 0 ? <AgainLinks e={e} /> : null}
            {can('member') && active.length > 0 ? (
              <ConfirmButton
                variant="secondary"
                loading={cancel.isPending}
                question={`Cancel the ${plural(active.length, 'unfinished run')}?`}
                detail="Finished runs and the data of running ones are kept."
                confirmLabel="Cancel runs"
                cancelLabel="Keep running"
                onConfirm={() => cancel.mutate({ id: e.id })}
              >
                <Square className="size-4" /> Cancel experiment
              </ConfirmButton>
            ) : null}
          </>
        }
      />
      <ErrorAlert error={cancel.error} className="mb-4" />
      {queueUnavailable && e.status === 'queued' ? (
        <Alert tone="warning" className="mb-4" title="Saved, waiting for the run queue">
          The run queue (Redis) did not answer when this experiment was launched. Its runs are saved
          as queued and start by themselves when the queue is back.
        </Alert>
      ) : null}
      {e.progress.byStatus.queued ? <NoWorkerAlert when="queued" className="mb-4" /> : null}
      <Card className="mb-6">
        <CardBody className="flex flex-wrap items-center gap-6">
          <div className="min-w-64 flex-1">
            <p className="mb-1 text-xs font-medium uppercase tracking-wide text-slate-500">
              Progress
            </p>
            <ProgressBar byStatus={e.progress.byStatus} total={e.progress.total} />
          </div>
          {Object.entries(e.progress.byStatus).map(([s, n]) => (
            <div key={s} className="flex items-center gap-2 text-sm">
              <RunStatusBadge status={s as RunStatus} /> <span className="tabular-nums">{n}</span>
            </div>
          ))}
        </CardBody>
      </Card>
      {e.advisor ? (
        <AdvisorCard
          experimentId={e.id}
          spec={e.advisor.spec}
          state={e.advisor.state}
          targetId={e.target.id}
        />
      ) : null}
      {e.sequential ? (
        <SequentialCard
          sequential={e.sequential}
          configs={e.poolConfigs.map((p) => p.name)}
          byHypotheses={e.hypotheses.items.length > 0}
        />
      ) : null}
      <HypothesesCard
        experimentId={e.id}
        hypotheses={e.hypotheses}
        finished={e.runs.length > 0 && e.progress.done === e.progress.total}
      />
      {e.runs.length === 0 ? (
        <Alert tone="info">
          This is a saved definition used by a schedule; it has no runs of its own.
        </Alert>
      ) : null}
      <Card>
        <CardHeader
          title="Run matrix"
          description={`Rows are pool configs, columns scenarios; each chip is one repeat in execution order${e.poolConfigs.length > 1 ? `, with its place in the repeat's round (${e.order} order)` : ''}.`}
        />
        <CardBody className="p-0">
          <ScrollX label="Run matrix">
            <table className="min-w-full text-sm">
              <thead>
                <tr className="bg-slate-50">
                  <th
                    scope="col"
                    className="px-4 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-500"
                  >
                    Pool config
                  </th>
                  {e.scenarios.map((s) => (
                    <th
                      key={s.id}
                      scope="col"
                      className="px-4 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-500"
                    >
                      {s.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {e.poolConfigs.map((pc) => (
                  <tr key={pc.id} className="align-top">
                    <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">
                      {pc.name}
                      <div className="text-xs font-normal text-slate-500">{pc.strategy}</div>
                    </th>
                    {e.scenarios.map((s) => {
                      const cell = e.runs
                        .filter((r) => r.poolConfigId === pc.id && r.scenarioId === s.id)
                        .sort((a, b) => a.repeatIndex - b.repeatIndex);
                      return (
                        <td key={s.id} className="px-4 py-3">
                          <div className="flex flex-wrap gap-2">
                            {cell.map((r) => {
                              const sum = r.summary;
                              return (
                                <Link
                                  key={r.id}
                                  href={`/runs/${r.id}`}
                                  data-testid="matrix-run"
                                  className="rounded-lg border border-slate-200 px-2.5 py-2 hover:border-brand-300 hover:bg-brand-50/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                                >
                                  <div className="flex items-center gap-2">
                                    <span className="text-xs font-medium text-slate-500">
                                      #{r.repeatIndex + 1}
                                    </span>
                                    {e.poolConfigs.length > 1 ? (
                                      <span
                                        className="text-xs text-slate-500"
                                        title="Its place among the runs of this repeat and scenario"
                                      >
                                        {ordinal(r.positionInRound + 1)}
                                      </span>
                                    ) : null}
                                    <RunStatusBadge status={r.status as RunStatus} />
                                  </div>
                                  {isMeasuredRunStatus(r.status) ? (
                                    <div className="mt-1 text-xs tabular-nums text-slate-600">
                                      {formatNumber(sum?.rps, 0)} req/s · p95{' '}
                                      {formatMs(sum?.latency?.p95)}
                                    </div>
                                  ) : null}
                                  {r.errorMessage ? (
                                    <div
                                      className="mt-1 max-w-48 truncate text-xs text-red-700"
                                      title={r.errorMessage}
                                    >
                                      {r.errorMessage}
                                    </div>
                                  ) : null}
                                </Link>
                              );
                            })}
                          </div>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollX>
        </CardBody>
      </Card>
    </>
  );
}
