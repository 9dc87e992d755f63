'use client';

import { useQuery } from '@tanstack/react-query';
import { LineChart as LineChartIcon } from 'lucide-react';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useTRPC } from '~/lib/trpc/react';
import { plural } from '~/lib/plural';
import { formatValue } from '~/components/compare/format-metric';
import { Badge } from '~/components/ui/badge';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert, EmptyState, LoadingBlock } from '~/components/ui/feedback';
import { ErrorAlert, QueryState } from '~/components/ui/query-state';
import { Field, Options, Select } from '~/components/ui/form';
import { PageHeader } from '~/components/ui/page-header';
import { TrendChart, type TrendMetricKey } from './trend-chart';
import { ChangePointsCard } from './change-points-card';
import { cellPairPath } from '@poolbench/contracts/links';
import { CiJobLink } from '~/components/experiments/ci-job-link';

const METRICS: Array<{ key: TrendMetricKey; label: string; unit: string }> = [
  { key: 'p95Ms', label: 'Latency p95', unit: 'ms' },
  { key: 'p99Ms', label: 'Latency p99', unit: 'ms' },
  { key: 'rps', label: 'Throughput', unit: 'req/s' },
  { key: 'errorRate', label: 'Error rate', unit: '%' },
];

/**
 * Trends: one target × scenario × pool config over time, an experiment per point, against the
 * team's baseline, so a nightly schedule or a CI pipeline shows when it got slower.
 */
export function TrendsPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const sp = useSearchParams();
  const cells = useQuery(trpc.trend.cells.queryOptions());
  const key = sp.get('cell') ?? '';
  const list = cells.data ?? [];
  const cell =
    list.find((c) => `${c.targetId}.${c.scenarioId}.${c.poolConfigId}` === key) ?? list[0];
  const baseline = sp.get('baseline');
  const series = useQuery({
    ...trpc.trend.series.queryOptions(
      cell
        ? {
            targetId: cell.targetId,
            scenarioId: cell.scenarioId,
            poolConfigId: cell.poolConfigId,
            baseline,
          }
        : { targetId: '', scenarioId: '', poolConfigId: '' },
    ),
    enabled: Boolean(cell),
  });
  const changes = useQuery({
    ...trpc.trend.changePoints.queryOptions(
      cell
        ? { targetId: cell.targetId, scenarioId: cell.scenarioId, poolConfigId: cell.poolConfigId }
        : { targetId: '', scenarioId: '', poolConfigId: '' },
    ),
    enabled: Boolean(cell),
  });
  const go = (params: Record<string, string | null>) => {
    const next = new URLSearchParams(sp.toString());
    for (const [k, v] of Object.entries(params))
      if (v) next.set(k, v);
      else next.delete(k);
    router.replace(`/trends?${next.toString()}`);
  };

  return (
    <>
      <PageHeader
        title="Trends"
        description="One pool config under one scenario, experiment after experiment: medians of its runs against the baseline, regressions marked."
      />
      <QueryState query={cells} />
      {cells.isSuccess && list.length === 0 ? (
        <EmptyState icon={LineChartIcon} title="No measured runs yet">
          Trends appear once experiments have finished runs. A schedule or a CI pipeline adds a
          point each time it runs.
        </EmptyState>
      ) : null}
      {cell ? (
        <Card className="mb-6">
          <CardBody className="grid gap-4 sm:grid-cols-[1fr_14rem]">
            <Field label="Target · scenario · pool config">
              {(p) => (
                <Select
                  {...p}
                  value={`${cell.targetId}.${cell.scenarioId}.${cell.poolConfigId}`}
                  onChange={(e) => go({ cell: e.target.value, baseline: null })}
                >
                  {list.map((c) => (
                    <option
                      key={`${c.targetId}.${c.scenarioId}.${c.poolConfigId}`}
                      value={`${c.targetId}.${c.scenarioId}.${c.poolConfigId}`}
                    >
                      {c.targetName} · {c.scenarioName} · {c.poolConfigName} (
                      {plural(c.runs, 'run')})
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Baseline">
              {(p) => (
                <Select
                  {...p}
                  value={series.data?.baseline?.name ?? ''}
                  onChange={(e) => go({ baseline: e.target.value || null })}
                  disabled={!series.data?.baselineNames.length}
                >
                  {series.data?.baselineNames.length ? null : <option value="">none saved</option>}
                  <Options items={series.data?.baselineNames} />
                </Select>
              )}
            </Field>
          </CardBody>
        </Card>
      ) : null}
      <ErrorAlert error={series.error} />
      {series.data ? (
        <>
          {!series.data.baseline ? (
            <Alert tone="info" className="mb-4">
              No baseline with runs of this pool config: points are drawn, but nothing is compared.
              Save one from an experiment's compare view (or from CI: poolbench baseline set, or run
              --save-baseline).
            </Alert>
          ) : null}
          <div className="grid gap-6 lg:grid-cols-2" data-testid="trend-charts">
            {METRICS.map((m) => (
              <Card key={m.key}>
                <CardHeader
                  title={m.label}
                  description={`median of each experiment's runs, ${m.unit}${series.data.baseline ? `; dashed: baseline ${series.data.baseline.name} (${formatValue(series.data.baseline.medians[m.key], m.unit)})` : ''}`}
                />
                <CardBody className="h-64">
                  <TrendChart
                    series={series.data}
                    metric={m.key}
                    unit={m.unit}
                    changePoints={changes.data?.changePoints.filter((c) => c.metric === m.key)}
                  />
                </CardBody>
              </Card>
            ))}
          </div>
          {changes.data ? (
            <ChangePointsCard
              changePoints={changes.data.changePoints}
              firings={changes.data.firings}
              units={Object.fromEntries(METRICS.map((m) => [m.key, m]))}
            />
          ) : null}
          <ErrorAlert error={changes.error} />
          <Card className="mt-6">
            <CardHeader
              title="Experiments"
              description="A regression is a verdict of worse against the baseline on a charted metric (Mann–Whitney U, Hodges–Lehmann interval, the metric's practical floor, p adjusted with Holm across the four primary metrics) or a run that failed a threshold; a suspected regression is a metric whose one-sided evidence of a worse change is significant under the same Holm adjustment, with its estimate beyond the floor, but whose verdict is not reached yet (amber); incomplete means too few valid runs on a side for any metric to reach p < 0.05 (fewer than 5 per side with four metrics) or more than a third of the runs crashed or invalid (never a pass). A run is invalid when it did not offer the load asked for (more than 1 % of its iterations dropped, or below 95 % of its arrival rate) or lost more than 1 % of its requests as late samples: it is left out of every verdict."
            />
            <CardBody className="p-0">
              <ul className="divide-y divide-slate-100 text-sm">
                {[...series.data.points].reverse().map((p) => (
                  <li
                    key={p.experimentId}
                    className="flex flex-wrap items-center gap-3 px-4 py-2.5"
                    data-testid="trend-experiment"
                  >
                    <Link
                      href={`/experiments/${p.experimentId}`}
                      className="font-medium text-slate-900 hover:text-brand-700 hover:underline"
                    >
                      {p.name}
                    </Link>
                    <span className="text-xs text-slate-500">
                      {new Date(p.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC ·{' '}
                      {plural(p.runs, 'run')}
                    </span>
                    {p.branch || p.commit ? (
                      <span className="font-mono text-xs text-slate-500">
                        {p.branch}
                        {p.commit ? `@${p.commit.slice(0, 10)}` : ''}
                      </span>
                    ) : null}
                    {p.isBaseline ? <Badge tone="blue">baseline</Badge> : null}
                    {p.state === 'regression' ? (
                      <Badge tone="red">
                        regression:{' '}
                        {[
                          ...METRICS.filter((m) => p.metrics[m.key].verdict === 'worse').map(
                            (m) => m.label,
                          ),
                          ...p.failedThresholds.map(
                            (t) => `threshold ${t.metric} ${t.expr} failed`,
                          ),
                          ...(p.loadNotTaken ? [p.loadNotTaken] : []),
                        ].join(', ')}
                      </Badge>
                    ) : p.state === 'suspected-regression' ? (
                      <Badge tone="amber">
                        suspected regression:{' '}
                        {METRICS.filter((m) => p.metrics[m.key].suspected)
                          .map((m) => m.label)
                          .join(', ')}
                      </Badge>
                    ) : p.state === 'incomplete' ? (
                      <Badge tone="amber">incomplete: {p.incomplete}</Badge>
                    ) : null}
                    {p.invalidRuns.length > 0 && p.state !== 'incomplete' ? (
                      <Badge tone="amber">
                        {plural(p.invalidRuns.length, 'invalid run')} left out:{' '}
                        {p.invalidRuns
                          .map((r) => r.reasons.map((x) => x.message).join(', '))
                          .join('; ')}
                      </Badge>
                    ) : null}
                    {series.data.baseline && !p.isBaseline ? (
                      <Link
                        className="text-xs text-brand-700 hover:underline"
                        href={cellPairPath(
                          series.data.baseline.experimentId,
                          {
                            poolConfigId: series.data.poolConfig.id,
                            scenarioId: series.data.scenario.id,
                          },
                          {
                            experimentId: p.experimentId,
                            poolConfigId: series.data.poolConfig.id,
                            scenarioId: series.data.scenario.id,
                          },
                        )}
                      >
                        Compare with baseline
                      </Link>
                    ) : null}
                    <CiJobLink url={p.buildUrl} className="text-xs" />
                  </li>
                ))}
              </ul>
            </CardBody>
          </Card>
        </>
      ) : series.isPending && cell ? (
        <LoadingBlock />
      ) : null}
    </>
  );
}
