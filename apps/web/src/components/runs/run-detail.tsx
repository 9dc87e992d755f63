'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Radio, Square } from 'lucide-react';
import Link from 'next/link';
import { useCallback, useState } from 'react';
import { z } from 'zod';
import { SCRIPT_TEMPLATE } from '@poolbench/scenarios';
import { TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/contracts';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { thresholdSeriesOf } from './threshold-series';
import { formatBytes, formatDateTime, formatDuration } from '~/lib/format';
import { Button } from '~/components/ui/button';
import { ConfirmButton } from '~/components/ui/confirm-button';
import { NotFoundOrElsewhere } from '~/components/teams/not-found-or-elsewhere';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { CodeBlock } from '~/components/ui/code-block';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { ErrorAlert } from '~/components/ui/query-state';
import { Textarea } from '~/components/ui/form';
import { PageHeader } from '~/components/ui/page-header';
import { RunStatusBadge } from './run-status-badge';
import { RunActions } from '~/components/compare/detail-actions';
import dynamic from 'next/dynamic';
import { RunSummary, ThresholdList } from './run-summary';

/** What the scenario card shows of a snapshot's params (any template): its params and request paths. */
const ScenarioShown = z.looseObject({
  params: z.record(z.string(), z.unknown()).optional(),
  requests: z
    .array(z.looseObject({ method: z.string().optional(), path: z.string().optional() }))
    .optional(),
  flow: z.boolean().optional().catch(undefined),
});
import { useRunPage, runPageKey } from './use-run-page';
import { useRunSeries } from './use-run-series';
import { SweepStepsCard } from './sweep-steps-card';
import { RequestStepsCard } from './request-steps-card';
import { ChecksCard } from './checks-card';
import { SubMetricsCard } from './sub-metrics-card';
import { RunNetworkLine, withoutNetwork } from './run-network';
import { LoadGeneratorsCard, waitingLine } from './load-generators-card';
import { RunInsightsCard } from './run-insights-card';
import { ScriptScenarioDetails } from './script-scenario-details';
import { Section, sectionHeading } from '~/components/ui/section';

// Recharts is loaded after the page, so the summary paints first and hydration stays small.
const RunCharts = dynamic(() => import('./run-charts').then((m) => m.RunCharts), {
  ssr: false,
  loading: () => <LoadingBlock rows={4} label="Loading charts" />,
});

const CustomMetricsCharts = dynamic(
  () => import('./custom-metrics-charts').then((m) => m.CustomMetricsCharts),
  { ssr: false },
);

/** Units are in the key names (house rule), so values can be shown in human units. */
function formatValue(key: string, v: unknown): string {
  if (typeof v === 'number' && /Bytes$/.test(key)) return formatBytes(v);
  if (typeof v === 'number' && /Ms$/.test(key))
    return `${formatDuration(v)}${v >= 1000 ? ` (${v.toLocaleString('en-US')} ms)` : ''}`;
  if (typeof v === 'object' && v !== null) return JSON.stringify(v);
  return String(v);
}

/** The versions of what served the run (runtime, database server, nginx) as rows of their own. */
function withComponents(env: Record<string, unknown>): Record<string, unknown> {
  const { components, cpuIsolation, disturbance, ...rest } = env as {
    components?: Record<string, unknown>;
    cpuIsolation?: Record<string, unknown>;
    disturbance?: Record<string, unknown>;
  };
  const pctOf = (v: unknown) => (typeof v === 'number' ? `${Math.round(v)} %` : '?');
  const disturbed = disturbance
    ? {
        disturbance: `${pctOf(disturbance.outsideCpuPercent)} of a core outside the run (machine ${pctOf(disturbance.machineCpuPercent)} of ${String(disturbance.cores ?? '?')} cores, steal ${pctOf(disturbance.stealPercent)}, load average ${typeof disturbance.loadAvg1mAtEnd === 'number' ? disturbance.loadAvg1mAtEnd.toFixed(2) : '?'} at the end, over ${String(disturbance.seconds ?? '?')} s)`,
      }
    : {};
  const isolation = cpuIsolation
    ? {
        'CPU isolation':
          cpuIsolation.mode === 'pinned'
            ? `k6 on CPU ${String(cpuIsolation.generatorCpus)}, target on CPU ${String(cpuIsolation.targetCpus)}; database ${String(cpuIsolation.database ?? 'not pinned')}`
            : `${String(cpuIsolation.mode)}: ${String(cpuIsolation.reason ?? '')}`,
      }
    : {};
  if (!components) return { ...rest, ...disturbed, ...isolation };
  return {
    ...rest,
    ...disturbed,
    ...isolation,
    ...(components.runtime ? { runtime: components.runtime } : {}),
    ...(components.database ? { 'database server': components.database } : {}),
    ...(components.nginx ? { nginx: components.nginx } : {}),
  };
}

function KeyValues({
  data,
  notApplied,
}: {
  data: Record<string, unknown>;
  /** keys the run did not apply, and by whom: shown struck through with the reason */
  notApplied?: { runtime: string; keys: string[] } | null;
}) {
  const entries = Object.entries(data);
  if (entries.length === 0) return <p className="text-sm text-slate-500">—</p>;
  const skipped = new Set(notApplied?.keys ?? []);
  return (
    <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1.5 text-sm">
      {entries.map(([k, v]) =>
        skipped.has(k) ? (
          <div key={k} className="contents" data-testid="param-not-applied">
            <dt className="text-slate-500 line-through">{k}</dt>
            <dd className="min-w-0 text-xs text-slate-500 [overflow-wrap:anywhere]">
              <span className="font-mono line-through">{formatValue(k, v)}</span> not applied by{' '}
              {notApplied?.runtime}
            </dd>
          </div>
        ) : (
          <div key={k} className="contents">
            <dt className="text-slate-500">{k}</dt>
            <dd className="min-w-0 font-mono text-xs text-slate-800 [overflow-wrap:anywhere]">
              {formatValue(k, v)}
            </dd>
          </div>
        ),
      )}
    </dl>
  );
}

function Notes({
  runId,
  initial,
  editable,
}: {
  runId: string;
  initial: string;
  editable: boolean;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [notes, setNotes] = useState(initial);
  const save = useMutation(
    trpc.run.updateNotes.mutationOptions({
      onSuccess: () => void qc.invalidateQueries({ queryKey: runPageKey(runId) }),
    }),
  );
  return (
    <div className="space-y-2">
      <label htmlFor="run-notes" className="sr-only">
        Notes
      </label>
      <Textarea
        id="run-notes"
        rows={4}
        value={notes}
        readOnly={!editable}
        onChange={(e) => setNotes(e.target.value)}
        placeholder={editable ? 'What changed, what you saw, what to try next…' : 'No notes.'}
      />
      {editable ? (
        <div className="flex items-center gap-3">
          <Button
            size="sm"
            variant="secondary"
            loading={save.isPending}
            disabled={notes === initial && !save.isSuccess}
            onClick={() => save.mutate({ id: runId, notes })}
          >
            Save notes
          </Button>
          {save.isSuccess ? <span className="text-xs text-emerald-700">Saved</span> : null}
          {save.isError ? (
            <span className="text-xs text-red-700">{messageOf(save.error)}</span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function RunDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const page = useRunPage(id);
  const onStatus = useCallback(
    () => void qc.invalidateQueries({ queryKey: runPageKey(id) }),
    [qc, id],
  );
  const live = useRunSeries(
    id,
    onStatus,
    page.data
      ? {
          points: page.data.series.points,
          downsampled: page.data.series.downsampled,
          status: page.data.run.status as RunStatus,
          live: !TERMINAL_RUN_STATUSES.includes(page.data.run.status as RunStatus),
        }
      : null,
  );
  const cancel = useMutation(trpc.run.cancel.mutationOptions({ onSettled: onStatus }));

  if (page.isPending) return <LoadingBlock rows={8} />;
  if (page.isError)
    return <NotFoundOrElsewhere kind="run" id={id} title="Run not found" error={page.error} />;
  const r = page.data.run;
  const status = r.status as RunStatus;
  const terminal = TERMINAL_RUN_STATUSES.includes(status);
  const pc = r.poolConfigSnapshot;
  const sc = r.scenarioSnapshot;
  const scParams = ScenarioShown.safeParse(sc.params ?? {}).data;
  // the tagged series a threshold names, charted per second (the card lists them all)
  const thresholdSeries = thresholdSeriesOf(r.thresholdResults ?? [], r.summary?.subMetrics ?? []);
  const script = r.script;
  const elapsedMs = r.startedAt
    ? (r.finishedAt ? new Date(r.finishedAt).getTime() : Date.now()) -
      new Date(r.startedAt).getTime()
    : null;

  return (
    <>
      <PageHeader
        crumbs={[
          { href: '/runs', label: 'Runs' },
          { href: `/experiments/${r.experiment.id}`, label: r.experiment.name },
        ]}
        title={
          <span className="flex flex-wrap items-center gap-3">
            {pc.name ?? 'Run'} × {sc.name ?? 'scenario'}{' '}
            <span className="text-base font-normal text-slate-500">#{r.repeatIndex + 1}</span>
            <RunStatusBadge status={status} />
          </span>
        }
        description={`${r.target.name} · queued ${formatDateTime(r.queuedAt)}${r.startedAt ? ` · started ${formatDateTime(r.startedAt)}` : ''}${elapsedMs !== null ? ` · ${formatDuration(elapsedMs)}` : ''}`}
        actions={
          terminal ? (
            <RunActions
              runId={id}
              title={`${pc.name ?? 'Run'} × ${sc.name ?? 'scenario'} #${r.repeatIndex + 1}`}
            />
          ) : can('member') ? (
            <ConfirmButton
              variant="secondary"
              loading={cancel.isPending}
              disabled={Boolean(r.cancelRequestedAt)}
              question="Cancel this run?"
              detail="Its data so far is kept."
              confirmLabel="Cancel run"
              cancelLabel="Keep running"
              onConfirm={() => cancel.mutate({ id })}
            >
              <Square className="size-4" />{' '}
              {r.cancelRequestedAt ? 'Cancel requested' : 'Cancel run'}
            </ConfirmButton>
          ) : null
        }
      />
      <ErrorAlert error={cancel.error} className="mb-4" />
      {r.errorMessage || r.errorCode ? (
        <Alert
          tone="error"
          className="mb-4"
          title={`Run ${status.replace('_', ' ')}${r.errorCode ? ` (${r.errorCode})` : ''}`}
        >
          {r.errorMessage}
        </Alert>
      ) : null}
      {r.secondsPrunedAt ? (
        <Alert tone="info" className="mb-4" title="Per-second data removed by the team's retention">
          On {formatDateTime(r.secondsPrunedAt)} this run's per-second charts were removed (Settings
          → Data retention). Its summary and merged histograms are kept, so it still counts in
          whole-run comparisons.
        </Alert>
      ) : null}
      {!terminal ? (
        <div className="mb-4 flex items-center gap-2 text-sm text-slate-600" aria-live="polite">
          <Radio
            className={
              live.connected
                ? 'size-4 motion-safe:animate-pulse text-emerald-600'
                : 'size-4 text-slate-400'
            }
            aria-hidden
          />
          {status === 'queued'
            ? 'Waiting for a free worker…'
            : status === 'preparing'
              ? r.loadGenerators > 1
                ? waitingLine(r.loadGenerators, r.segments)
                : 'Starting the target with this pool config…'
              : live.connected
                ? `Live · ${live.points.length} s received`
                : (live.error ?? 'Connecting…')}
        </div>
      ) : null}

      {terminal && r.summary ? (
        <Section id="summary-h" title="Summary" className="mb-6">
          <RunSummary summary={r.summary} />
        </Section>
      ) : null}
      {terminal ? (
        <RunInsightsCard
          insights={r.insights}
          validity={r.validity}
          scenario={sc.id ? { id: sc.id, name: sc.name ?? 'the scenario' } : null}
        />
      ) : null}
      {terminal && sc.templateId === 'arrival-rate-sweep' ? <SweepStepsCard runId={id} /> : null}
      {terminal && r.summary ? (
        <RequestStepsCard summary={r.summary} flow={scParams?.flow === true} />
      ) : null}
      {terminal && r.summary ? <ChecksCard summary={r.summary} /> : null}
      {terminal && r.summary ? <SubMetricsCard summary={r.summary} /> : null}
      {terminal && thresholdSeries.length ? (
        <CustomMetricsCharts runId={id} source="subMetrics" names={thresholdSeries} />
      ) : null}
      {terminal && r.summary?.custom ? (
        <CustomMetricsCharts runId={id} dropped={r.summary.customDropped ?? 0} />
      ) : null}

      <section aria-labelledby="charts-h" className="mb-6">
        <div className="mb-3 flex items-baseline justify-between">
          <h2 id="charts-h" className={sectionHeading}>
            Per second
          </h2>
          {live.downsampled ? (
            <span className="text-xs text-slate-500">
              Long run: each point pair shows the min and max of a time bucket, nothing is cut off.
            </span>
          ) : null}
        </div>
        {live.points.length === 0 && status !== 'running' ? (
          <Card className="grid h-40 place-items-center text-sm text-slate-500">
            {terminal
              ? 'This run recorded no per-second data.'
              : 'Charts start when the load starts.'}
          </Card>
        ) : (
          <RunCharts points={live.points} />
        )}
      </section>

      {r.loadGenerators > 1 ? (
        <LoadGeneratorsCard count={r.loadGenerators} segments={r.segments} />
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Thresholds" />
          <CardBody>
            {terminal ? (
              <ThresholdList raw={r.thresholdResults} />
            ) : (
              <p className="text-sm text-slate-500">Evaluated when the run ends.</p>
            )}
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Notes"
            description={can('member') ? 'Visible to the whole team.' : undefined}
          />
          <CardBody>
            <Notes runId={r.id} initial={r.notes ?? ''} editable={can('member')} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title={`Pool config: ${pc.name ?? '—'}`}
            description={`${pc.strategy ?? '?'}${pc.instanceCount && pc.instanceCount > 1 ? ` × ${pc.instanceCount} instances` : ''} (snapshot at launch)`}
          />
          <CardBody>
            <KeyValues data={pc.params ?? {}} notApplied={r.poolParamsNotApplied} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title={`Scenario: ${sc.name ?? '—'}`}
            description={`${sc.templateId ?? '?'} (snapshot at launch)`}
          />
          <CardBody>
            {sc.templateId === SCRIPT_TEMPLATE ? (
              <ScriptScenarioDetails params={sc.params} />
            ) : (
              <KeyValues data={scParams?.params ?? {}} />
            )}
            {scParams?.requests ? (
              <p className="mt-3 font-mono text-xs text-slate-600">
                {scParams.requests.map((q) => `${q.method ?? 'GET'} ${q.path}`).join(', ')}
              </p>
            ) : null}
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Environment"
            description="Fingerprint of the worker, k6 and target for this run."
          />
          <CardBody>
            <RunNetworkLine environment={r.environment} />
            <KeyValues
              data={{
                ...(r.workerId ? { worker: r.workerId } : {}),
                ...withComponents(withoutNetwork(r.environment)),
              }}
            />
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title={
              sc.templateId === SCRIPT_TEMPLATE ? "The team's k6 script" : 'Generated k6 script'
            }
          />
          <CardBody>
            {script ? (
              <CodeBlock code={script} label="script.js" maxHeight="max-h-80" />
            ) : (
              <p className="text-sm text-slate-500">Not available.</p>
            )}
          </CardBody>
        </Card>
      </div>
      <p className="mt-6 text-xs text-slate-500">
        Run {r.id} ·{' '}
        <Link href={`/runs?targetId=${r.target.id}`} className="hover:underline">
          more runs on {r.target.name}
        </Link>
      </p>
    </>
  );
}
