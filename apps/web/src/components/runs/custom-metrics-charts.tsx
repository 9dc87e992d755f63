'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '~/lib/trpc/react';
import { Card, CardHeader } from '~/components/ui/card';
import { SecondsLines } from '~/components/charts/seconds-lines';
import { aboveTopText } from '@poolbench/contracts';
import { formatValue } from '~/components/compare/format-metric';

const TREND_LINES = [
  { key: 'p50', color: '#1f57d6' },
  { key: 'p95', color: '#f59e0b' },
  { key: 'p99', color: '#ef4444' },
] as const;
const UNIT = { trend: 'ms', counter: 'per second', rate: '% of samples', gauge: 'last value' };

type Series = {
  name: string;
  type: 'trend' | 'counter' | 'rate' | 'gauge';
  /** a trend of times (ms); a trend without it holds plain numbers */
  time: boolean;
  negative: number;
  aboveTop: number;
  points: Array<Record<string, number | null>>;
};

/** What the chart's values are: ms only for a trend of times, a trend of numbers has no unit. */
function unitOf(s: Pick<Series, 'type' | 'time'>): string {
  return s.type === 'trend' && !s.time ? 'number' : UNIT[s.type];
}

function MetricChart({ s }: { s: Series }) {
  const lines =
    s.type === 'trend'
      ? TREND_LINES.map((l) => ({ ...l, label: l.key }))
      : [{ key: 'value', color: '#1f57d6', label: s.name }];
  const data: Array<Record<string, number | null>> =
    s.type === 'rate'
      ? s.points.map((p) => ({ ...p, value: p.value === null ? null : (p.value ?? 0) * 100 }))
      : s.points;
  return (
    <Card className="p-4" data-testid="custom-metric-chart" data-metric={s.name}>
      <div className="mb-2 flex items-baseline justify-between">
        <h3 className="font-mono text-sm font-semibold text-slate-800">{s.name}</h3>
        <span className="text-xs text-slate-500" data-testid="custom-metric-unit">
          {s.type} · {unitOf(s)}
        </span>
      </div>
      {s.negative > 0 ? (
        <p className="mb-2 text-xs text-amber-800" data-testid="custom-metric-negative">
          {s.negative.toLocaleString('en-US')} {s.negative === 1 ? 'sample' : 'samples'} below 0
          left out: a trend&apos;s histogram holds 0 and above.
        </p>
      ) : null}
      {s.aboveTop > 0 ? (
        <p className="mb-2 text-xs text-amber-800" data-testid="custom-metric-above-top">
          {aboveTopText(s.aboveTop, s.time)}: a percentile at the top means at least that much.
        </p>
      ) : null}
      <div className="h-48">
        <SecondsLines
          data={data}
          series={lines}
          tooltipFormat={s.type === 'trend' ? (v) => formatValue(v, s.time ? 'ms' : '') : undefined}
          dot={data.length < 3}
        />
      </div>
    </Card>
  );
}

const SOURCES = {
  custom: {
    title: "The script's own metrics",
    description:
      "Its k6/metrics Trend, Counter, Rate and Gauge, and each group's duration, per second: a trend's p50, p95 and p99 (in ms for a trend of times, new Trend(name, true); as plain numbers otherwise), a counter's count in the second, a rate's share, a gauge's last value.",
    testId: 'custom-metrics',
  },
  subMetrics: {
    title: 'Tagged sub-metrics per second',
    description:
      "The series the run's thresholds name, per second: a trend's p50, p95 and p99, a counter's count in the second, a rate's share.",
    testId: 'sub-metric-charts',
  },
} as const;

/**
 * The script's own metrics (k6/metrics), or the tagged series its thresholds name (`names`), one
 * chart each, per second of the run.
 */
export function CustomMetricsCharts({
  runId,
  source = 'custom',
  names,
  dropped = 0,
}: {
  runId: string;
  source?: keyof typeof SOURCES;
  names?: string[];
  /** samples of metrics (or groups) past the run's cap, in no chart */
  dropped?: number;
}) {
  const trpc = useTRPC();
  const q = useQuery(trpc.run.customSeries.queryOptions({ id: runId, source, names }));
  if (!q.data || q.data.length === 0) return null;
  const text = SOURCES[source];
  const headingId = `${text.testId}-h`;
  return (
    <section aria-labelledby={headingId} className="mb-6" data-testid={text.testId}>
      <CardHeader title={text.title} description={text.description} />
      <h2 id={headingId} className="sr-only">
        {text.title}
      </h2>
      {dropped > 0 ? (
        <p
          className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="custom-metrics-dropped"
        >
          At most 16 metrics and 16 groups are kept per run; {dropped.toLocaleString('en-US')}{' '}
          samples of further ones are in no chart.
        </p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {q.data.map((s) => (
          <MetricChart key={s.name} s={s} />
        ))}
      </div>
    </section>
  );
}
