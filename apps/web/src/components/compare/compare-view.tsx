'use client';

import { useQuery } from '@tanstack/react-query';
import { Download, FileCode2, Flag, Pencil } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { fetchPageData } from '~/lib/page-data';
import { useTRPC } from '~/lib/trpc/react';
import type { RouterOutputs } from '~/lib/trpc/types';
import { useRole } from '~/lib/hooks/use-role';
import { Badge } from '~/components/ui/badge';
import { Button, buttonClass } from '~/components/ui/button';
import { Card, CardHeader } from '~/components/ui/card';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { PageHeader } from '~/components/ui/page-header';
import { ChartFrame } from '~/components/charts/chart-frame';
import { OnePerFrame } from '~/components/charts/one-per-frame';
import { SERIES_METRICS } from '~/lib/compare/series-metrics';
import { itemKey, type CompareItem, type Selection } from '~/lib/compare/selection';
import { BandChart } from './band-chart';
import { SetBaselineButton } from './baseline-button';
import { comparePageKey } from './compare-page-key';
import { ComparisonTable } from './comparison-table';
import { ConfigDifference } from './config-difference';
import { headline } from './headline';
import { GROUP_COLORS, formatValue } from './format-metric';
import { MergedTable } from './merged-table';
import { StepsTable } from './steps-table';
import { ScriptMetricsTable } from './script-metrics-table';
import { PivotCard } from './pivot-card';
import { ShareButton } from './share-dialog';
import { SpectrumChart } from './spectrum-chart';
import { WindowPicker, type TimeWindow } from './window-picker';
import { NotFoundOrElsewhere } from '~/components/teams/not-found-or-elsewhere';
import { comparePath, compareQuery } from '@poolbench/contracts/links';

type ComparisonView = RouterOutputs['compare']['get'];

const unitFormat = (unit: string) => (v: number) =>
  unit === 'ms'
    ? formatValue(v, 'ms')
    : unit === '%'
      ? `${v.toFixed(v < 10 ? 1 : 0)}%`
      : v.toLocaleString('en-US', { maximumFractionDigits: v < 10 ? 1 : 0 });

export function CompareView({
  items,
  baseline,
  window,
  noiseFloor = 'calibrated',
}: {
  items: CompareItem[];
  baseline: number | null;
  window: TimeWindow | null;
  /** whether verdicts use the A/A calibrations' noise floors where they exist */
  noiseFloor?: 'calibrated' | 'default';
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const { can } = useRole();
  const selection: Selection = { items, baseline, window, noiseFloor };
  const dataQuery = compareQuery(items, { baseline, window, noiseFloor });
  const q = useQuery({
    queryKey: comparePageKey(dataQuery),
    queryFn: () => fetchPageData<ComparisonView>(`/api/compare/data?${dataQuery}`),
  });
  // the repeats estimate is a bootstrap per inconclusive verdict: asked for only when there is one
  const inconclusive =
    q.data?.rows.some((r) => r.comparisons.some((x) => x?.verdict === 'inconclusive')) ?? false;
  const rq = useQuery({
    ...trpc.compare.repeatsNeeded.queryOptions({ selection }),
    enabled: inconclusive,
    staleTime: 60_000,
  });
  if (q.isPending) return <LoadingBlock rows={8} label="Comparing" />;
  if (q.isError) {
    // a comparison linked from another of the user's teams names that team (first item decides)
    const first = items[0];
    const owner = first
      ? first.kind === 'run'
        ? { kind: 'run' as const, id: first.runId }
        : { kind: 'experiment' as const, id: first.experimentId }
      : { kind: 'experiment' as const, id: null };
    return (
      <NotFoundOrElsewhere
        kind={owner.kind}
        id={owner.id}
        title="Could not compare"
        error={q.error}
      />
    );
  }
  const c = q.data;
  const labels = c.groups.map((g) => g.label);
  const exportQuery = dataQuery;
  const sameExperiment = c.groups.every((g) => g.experimentId === c.groups[0]!.experimentId)
    ? c.groups[0]!
    : null;
  const go = (next: CompareItem[], b: number | null, w: TimeWindow | null = window) =>
    router.push(comparePath(next, { baseline: b, window: w, noiseFloor }));
  // the upstream pool only where a target used one (the lab target reports zeros for every other endpoint)
  const seriesShown = SERIES_METRICS.filter((m) =>
    c.series[m.key].some((p) =>
      p.values.some((v) => v !== null && (!m.key.startsWith('upstream') || v.max > 0)),
    ),
  );
  const runningExperiments = inconclusive
    ? (rq.data?.experiments.filter((e) => e.running) ?? [])
    : [];
  const missingSaved = c.availableBaselines.filter(
    (b) => !items.some((i) => itemKey(i) === itemKey(b.item)),
  );
  return (
    <>
      <PageHeader
        crumbs={[{ href: '/compare', label: 'Compare' }]}
        title={labels.join(' vs ')}
        description={`${c.groups[0]!.targetName} · ${[...new Set(c.groups.map((g) => g.scenarioName))].join(', ')} · ${c.groups.reduce((a, g) => a + g.repeats, 0)} runs${window ? ` · seconds ${window.from}–${window.to} of each` : c.durationSeconds ? ` · ${c.durationSeconds} s each` : ''}`}
        actions={
          <>
            <Link href={comparePath(items, { edit: true })} className={buttonClass('ghost')}>
              <Pencil className="size-4" /> Change
            </Link>
            <a
              href={`/api/exports/comparison?format=csv&${exportQuery}`}
              className={buttonClass('secondary')}
              download
            >
              <Download className="size-4" /> CSV
            </a>
            <a
              href={`/api/exports/comparison?format=json&${exportQuery}`}
              className={buttonClass('secondary')}
              download
            >
              <Download className="size-4" /> JSON
            </a>
            <a
              href={`/api/exports/comparison?format=html&${exportQuery}`}
              className={buttonClass('secondary')}
              download
              data-testid="export-html"
            >
              <FileCode2 className="size-4" /> Report
            </a>
            {can('member') ? (
              <ShareButton
                target={{
                  kind: 'comparison',
                  selection: { items, baseline: c.baselineIndex, window, noiseFloor },
                }}
                defaultTitle={labels.join(' vs ')}
              />
            ) : null}
          </>
        }
      />

      <div className="mb-5 grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-testid="compare-groups">
        {c.groups.map((g, i) => (
          <div
            key={g.key}
            className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
            style={{ borderTop: `3px solid ${GROUP_COLORS[i % GROUP_COLORS.length]}` }}
          >
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0">
                <div className="flex items-center gap-2 font-semibold text-slate-900">
                  {g.label}
                  {i === c.baselineIndex ? (
                    <Badge tone="brand">
                      {c.savedBaseline && c.savedBaseline.index === i && baseline === null
                        ? `baseline · ${c.savedBaseline.name}`
                        : 'baseline'}
                    </Badge>
                  ) : null}
                </div>
                <div className="mt-0.5 text-xs text-slate-500">
                  {g.strategy ?? 'pool'} · {g.scenarioName} · {g.repeats}{' '}
                  {g.repeats === 1 ? 'run' : 'runs'} · {g.requests.toLocaleString('en-US')} requests
                </div>
                <div className="text-xs text-slate-500">
                  <Link className="hover:underline" href={`/experiments/${g.experimentId}`}>
                    {g.experimentName}
                  </Link>
                </div>
              </div>
            </div>
            <div className="mt-3 flex flex-wrap gap-2">
              {i !== c.baselineIndex ? (
                <Button size="sm" variant="ghost" onClick={() => go(items, i)}>
                  Use as baseline here
                </Button>
              ) : null}
              {can('member') ? (
                <SetBaselineButton
                  size="sm"
                  item={items[i]!}
                  label={`Save ${g.poolConfigName} as 'main'`}
                  scope={`${g.poolConfigName} on ${g.targetName}, scenario ${g.scenarioName}`}
                />
              ) : null}
            </div>
          </div>
        ))}
      </div>

      {missingSaved.length > 0 ? (
        <Alert
          tone="info"
          className="mb-4"
          title="A saved baseline exists for this target and scenario"
        >
          <div className="flex flex-wrap items-center gap-2">
            {missingSaved.slice(0, 3).map((b) => (
              <Button
                key={b.id}
                size="sm"
                variant="secondary"
                onClick={() => go([b.item, ...items].slice(0, 6), 0)}
              >
                <Flag className="size-4" /> Compare against &apos;{b.name}&apos; ({b.label})
              </Button>
            ))}
          </div>
        </Alert>
      ) : null}

      <p className="mb-2 text-base font-medium text-slate-900" data-testid="compare-answer">
        {headline(c)}
      </p>
      <ConfigDifference groups={c.groups} />

      {c.warnings.length > 0 ? (
        <div className="mb-4 space-y-2" data-testid="compare-warnings">
          {c.warnings.map((w) => (
            <Alert key={w.code} tone="warning">
              {w.message}
            </Alert>
          ))}
        </div>
      ) : null}

      <WindowPicker
        window={window}
        durationSeconds={c.spanSeconds}
        onChange={(w) => go(items, baseline, w)}
      />

      <Card className="mb-6">
        <CardHeader
          title="Comparison"
          description={`One value per run and metric${window ? `, over seconds ${window.from}–${window.to} of each run` : ''}. Mann–Whitney U with p adjusted by Holm across the primary metrics (p95, p99, throughput, error rate) and by Benjamini–Hochberg across the rest, Hodges–Lehmann change with its interval (95 % when there are enough runs; the coverage each interval reaches is shown beside it), 5 % practical floor (or the measured A/A noise floor, where larger).`}
        />
        <NoiseFloorNote
          c={c}
          noiseFloor={noiseFloor}
          onToggle={() =>
            router.push(
              comparePath(items, {
                baseline,
                window,
                noiseFloor: noiseFloor === 'default' ? 'calibrated' : 'default',
              }),
            )
          }
        />
        {runningExperiments.length > 0 ? (
          <Alert tone="info" className="mx-4 mt-3">
            {runningExperiments.map((e) => e.name).join(', ')}{' '}
            {runningExperiments.length === 1 ? 'is' : 'are'} still running: the runs still to come
            (added repeats too) count here once they finish.
          </Alert>
        ) : null}
        <ComparisonTable
          c={c}
          repeats={{ view: rq.data, pending: inconclusive && rq.isPending }}
          canExtend={can('member')}
        />
      </Card>

      <Card className="mb-6">
        <CardHeader
          title="All requests"
          description="Percentiles over every request of every repeat, from merged per-second histograms. Descriptive: requests inside a run are correlated, so these are not tested."
        />
        <MergedTable c={c} />
      </Card>

      {c.groups.some((g) => g.steps.length > 0) ? (
        <Card className="mb-6">
          <CardHeader
            title="By request"
            description="Each request name (a flow's steps) over whole runs: the median of the runs' p95 and p99, and the share of its requests that failed, by status or by a check. Descriptive; a time window does not apply."
          />
          <StepsTable c={c} />
        </Card>
      ) : null}

      {c.scriptMetrics.length > 0 ? (
        <Card className="mb-6" data-testid="script-metrics">
          <CardHeader
            title="Script metrics"
            description="The script's own k6 metrics (Trend, Counter, Rate, Gauge) and its groups' durations that the baseline and another group recorded: the median over each group's runs, and each group's difference from the baseline. Descriptive, never tested; whole runs, a time window does not apply."
          />
          <ScriptMetricsTable c={c} />
        </Card>
      ) : null}

      <OnePerFrame count={1 + seriesShown.length} testId="compare-chart-area">
        <div className="mb-6 grid gap-4 lg:grid-cols-3">
          <ChartFrame
            slot={0}
            title="Latency by percentile"
            unit="ms · log scales"
            className="lg:col-span-1"
            height="h-64"
            testId="chart-spectrum"
          >
            <SpectrumChart spectrum={c.spectrum} labels={labels} />
          </ChartFrame>
          {sameExperiment ? (
            <div className="lg:col-span-2">
              <PivotCard
                experimentId={sameExperiment.experimentId}
                experimentName={sameExperiment.experimentName}
              />
            </div>
          ) : null}
        </div>

        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-base font-semibold text-slate-900">Over time</h2>
          <div className="flex flex-wrap items-center gap-4 text-xs text-slate-600">
            {c.groups.map((g, i) => (
              <span key={g.key} className="inline-flex items-center gap-1.5">
                <i
                  className="inline-block h-2.5 w-4 rounded-sm"
                  style={{ background: GROUP_COLORS[i % GROUP_COLORS.length] }}
                />
                {g.label}
              </span>
            ))}
            <span className="text-slate-500">line: median of repeats · band: min–max</span>
          </div>
        </div>
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" data-testid="compare-charts">
          {seriesShown.map((m, i) => (
            <ChartFrame
              key={m.key}
              slot={1 + i}
              title={m.label}
              unit={m.unit}
              testId={`chart-${m.key}`}
            >
              <BandChart points={c.series[m.key]} labels={labels} format={unitFormat(m.unit)} />
            </ChartFrame>
          ))}
        </div>
      </OnePerFrame>
    </>
  );
}

/**
 * Which practical floors the verdicts use: the A/A calibrations' measured noise floors (named, with
 * their run counts and dates) or every metric's default, with a switch between the two.
 */
function NoiseFloorNote({
  c,
  noiseFloor,
  onToggle,
}: {
  c: {
    groups: Array<{ label: string }>;
    noiseFloors: Array<{ experimentId: string; runsPerSide: number; createdAt: string } | null>;
  };
  noiseFloor: 'calibrated' | 'default';
  onToggle: () => void;
}) {
  const used = c.noiseFloors
    .map((f, i) => (f ? { f, label: c.groups[i]!.label } : null))
    .filter((x) => x !== null);
  if (noiseFloor === 'calibrated' && used.length === 0) return null;
  return (
    <div data-testid="noise-floor-note">
      <Alert tone="info" className="mx-4 mt-3">
        {noiseFloor === 'default' ? (
          <>Verdicts use every metric&apos;s default floor, not the measured A/A noise floors. </>
        ) : (
          <>
            Practical floors are raised to the noise floor measured by an A/A calibration where it
            is larger than the default:{' '}
            {[...new Map(used.map((u) => [u.f.experimentId, u])).values()].map((u, k) => (
              <span key={u.f.experimentId}>
                {k > 0 ? '; ' : ''}
                <Link className="font-medium underline" href={`/experiments/${u.f.experimentId}`}>
                  {u.f.runsPerSide} vs {u.f.runsPerSide} runs
                </Link>{' '}
                of {new Date(u.f.createdAt).toISOString().slice(0, 10)} (for {u.label})
              </span>
            ))}
            . Changes smaller than that are what identical configs show on this machine.{' '}
          </>
        )}
        <button type="button" className="font-medium underline" onClick={onToggle}>
          {noiseFloor === 'default' ? 'Use the measured noise floors' : 'Use the default floors'}
        </button>
      </Alert>
    </div>
  );
}
