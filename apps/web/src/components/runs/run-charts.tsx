'use client';

import { memo, useMemo } from 'react';
import {
  Area,
  AreaChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { SeriesPoint } from '@poolbench/contracts';
import { Card } from '~/components/ui/card';
import { SecondsLines, axis } from '~/components/charts/seconds-lines';
import {
  ChartPlaceholder,
  FrameSlots,
  useFrameSlot,
  useOnePerFrame,
} from '~/components/charts/one-per-frame';

const PALETTE = [
  '#1f57d6',
  '#0ea5e9',
  '#f59e0b',
  '#ef4444',
  '#10b981',
  '#8b5cf6',
  '#64748b',
  '#ec4899',
];
const STATUS_COLORS: Record<string, string> = {
  '2': '#10b981',
  '3': '#0ea5e9',
  '4': '#f59e0b',
  '5': '#ef4444',
  '0': '#64748b',
};

interface SeriesDef {
  key: string;
  label: string;
  color?: string;
}

const CHART_COUNT = 10;

function ChartCard({
  slot,
  title,
  unit,
  children,
  empty,
  testId,
}: {
  slot: number;
  title: string;
  unit?: string;
  children: React.ReactNode;
  empty?: boolean;
  testId?: string;
}) {
  const ready = useFrameSlot(slot);
  return (
    <Card className="p-4" data-testid={testId}>
      <div className="mb-2 flex items-baseline justify-between">
        <h3 className="text-sm font-semibold text-slate-800">{title}</h3>
        {unit ? <span className="text-xs text-slate-500">{unit}</span> : null}
      </div>
      <div className="h-48">
        {empty ? (
          <div className="grid h-full place-items-center text-xs text-slate-500">
            No samples for this run
          </div>
        ) : ready ? (
          children
        ) : (
          <ChartPlaceholder />
        )}
      </div>
    </Card>
  );
}

/** The run's lines of one chart, each without a color of its own given the palette's next. */
function Lines({
  data,
  series,
  format,
}: {
  data: Array<Record<string, number | null>>;
  series: SeriesDef[];
  format?: (v: number) => string;
}) {
  return (
    <SecondsLines
      data={data}
      series={series.map((s, i) => ({ ...s, color: s.color ?? PALETTE[i % PALETTE.length]! }))}
      format={format}
    />
  );
}

const has = (points: SeriesPoint[], keys: Array<keyof SeriesPoint>) =>
  points.some((p) => keys.some((k) => p[k] !== null && p[k] !== undefined));

const oneDecimalBelow10 = (v: number) => v.toFixed(v < 10 ? 1 : 0);

/** The charts of the target's resources and connections, shown from slot 4 in this order. */
const RESOURCE_CHARTS: {
  title: string;
  unit: string;
  /** the point fields whose samples the chart draws; none sampled: "No samples" */
  needs: Array<keyof SeriesPoint>;
  series: SeriesDef[];
  format?: (v: number) => string;
}[] = [
  {
    title: 'Connection set-up',
    unit: 'p95 ms',
    needs: ['connectingP95Ms', 'blockedP95Ms'],
    series: [
      { key: 'connectingP95Ms', label: 'connecting p95' },
      { key: 'blockedP95Ms', label: 'blocked p95', color: '#f59e0b' },
    ],
    format: (v) => v.toFixed(v < 10 ? 2 : 0),
  },
  {
    title: 'Target CPU',
    unit: '% of one core',
    needs: ['cpuPercent'],
    series: [{ key: 'cpuPercent', label: 'CPU', color: '#0ea5e9' }],
    format: (v) => v.toFixed(0),
  },
  {
    title: 'Target memory',
    unit: 'RSS, MiB',
    needs: ['rssBytes'],
    series: [{ key: 'rssMiB', label: 'RSS', color: '#10b981' }],
    format: oneDecimalBelow10,
  },
  {
    title: 'Pool',
    unit: 'connections',
    needs: ['poolInUse', 'poolIdle', 'poolWaitCount'],
    series: [
      { key: 'poolInUse', label: 'in use', color: '#1f57d6' },
      { key: 'poolIdle', label: 'idle', color: '#10b981' },
      { key: 'poolWaitCount', label: 'waiting', color: '#ef4444' },
    ],
  },
  {
    title: 'Database connections',
    unit: 'connections',
    needs: ['dbActive', 'dbIdle', 'dbTotal'],
    series: [
      { key: 'dbTotal', label: 'total', color: '#64748b' },
      { key: 'dbActive', label: 'active', color: '#1f57d6' },
      { key: 'dbIdle', label: 'idle', color: '#10b981' },
    ],
  },
];

/** The run's charts; memoised so a live second only re-renders when the points change. */
export const RunCharts = memo(function RunCharts({ points }: { points: SeriesPoint[] }) {
  const data = useMemo(
    () =>
      points.map((p) => ({
        ...p,
        ok: p.requests - p.failed,
        rssMiB: p.rssBytes === null ? null : p.rssBytes / 2 ** 20,
      })) as unknown as Array<Record<string, number | null>>,
    [points],
  );
  const statusData = useMemo(() => {
    const keys = new Set<string>();
    for (const p of points) for (const k of Object.keys(p.statusCounts)) keys.add(k);
    const sorted = [...keys].sort();
    return {
      keys: sorted,
      rows: points.map((p) => ({
        second: p.second,
        ...Object.fromEntries(sorted.map((k) => [k, p.statusCounts[k] ?? 0])),
      })),
    };
  }, [points]);

  return (
    <ChartGrid points={points.length}>
      <ChartCard slot={0} title="Throughput" unit="requests / s" testId="chart-throughput">
        <Lines
          data={data}
          series={[
            { key: 'requests', label: 'requests', color: '#1f57d6' },
            { key: 'failed', label: 'failed', color: '#ef4444' },
          ]}
        />
      </ChartCard>
      <ChartCard slot={1} title="Latency" unit="ms">
        <Lines
          data={data}
          series={[
            { key: 'p50Ms', label: 'p50' },
            { key: 'p95Ms', label: 'p95' },
            { key: 'p99Ms', label: 'p99' },
            { key: 'maxMs', label: 'max', color: '#94a3b8' },
          ]}
          format={oneDecimalBelow10}
        />
      </ChartCard>
      <ChartCard
        slot={2}
        title="Responses by status"
        unit="per s"
        empty={statusData.keys.length === 0}
      >
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={statusData.rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#f1f5f9" vertical={false} />
            <XAxis
              dataKey="second"
              type="number"
              domain={['dataMin', 'dataMax']}
              unit="s"
              {...axis}
            />
            <YAxis width={48} {...axis} />
            <Tooltip labelFormatter={(s) => `${s} s`} contentStyle={{ fontSize: 12 }} />
            <Legend wrapperStyle={{ fontSize: 11 }} iconSize={8} />
            {statusData.keys.map((k) => (
              <Area
                key={k}
                dataKey={k}
                name={k === '0' ? 'no response' : k}
                stackId="s"
                stroke={STATUS_COLORS[k[0] ?? '0'] ?? '#64748b'}
                fill={STATUS_COLORS[k[0] ?? '0'] ?? '#64748b'}
                fillOpacity={0.35}
                isAnimationActive={false}
              />
            ))}
          </AreaChart>
        </ResponsiveContainer>
      </ChartCard>
      <ChartCard slot={3} title="Virtual users" unit="VUs" testId="chart-vus">
        {/* allocated (k6's vus_max) beside active: arrival-rate runs keep most VUs idle between iterations */}
        <Lines
          data={data}
          series={
            has(points, ['vusAllocated'])
              ? [
                  { key: 'vus', label: 'active', color: '#8b5cf6' },
                  { key: 'vusAllocated', label: 'allocated', color: '#94a3b8' },
                ]
              : [{ key: 'vus', label: 'VUs', color: '#8b5cf6' }]
          }
        />
      </ChartCard>
      {RESOURCE_CHARTS.map((c, i) => (
        <ChartCard
          key={c.title}
          slot={4 + i}
          title={c.title}
          unit={c.unit}
          empty={!has(points, c.needs)}
        >
          <Lines data={data} series={c.series} format={c.format} />
        </ChartCard>
      ))}
      {points.some((p) => (p.upstreamOpen ?? 0) > 0 || (p.upstreamInUse ?? 0) > 0) ? (
        // the target's HTTP client pool towards its upstream (seed 000's POST /upload): shown when the target reports it
        <ChartCard
          slot={9}
          title="Upstream HTTP pool"
          unit="connections · wait ms"
          testId="chart-upstream"
        >
          <Lines
            data={data}
            series={[
              { key: 'upstreamOpen', label: 'open', color: '#64748b' },
              { key: 'upstreamInUse', label: 'in use', color: '#1f57d6' },
              { key: 'upstreamWaitMs', label: 'conn wait ms', color: '#ef4444' },
            ]}
          />
        </ChartCard>
      ) : null}
    </ChartGrid>
  );
});

/**
 * The grid the charts mount into, one per frame. The frame counter lives here, not in
 * `RunCharts`: a frame then re-renders the grid and the cards, whose charts are the same elements
 * as before and are skipped, plus the one chart whose turn it is. With the counter in `RunCharts`
 * every frame re-rendered every chart drawn so far; on a loaded machine a live run's charts took
 * longer than 15 s to appear.
 */
function ChartGrid({ points, children }: { points: number; children: React.ReactNode }) {
  const shown = useOnePerFrame(CHART_COUNT);
  return (
    <FrameSlots shown={shown}>
      <div
        className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
        data-testid="run-charts"
        data-points={points}
        data-charts-drawn={shown >= CHART_COUNT}
      >
        {children}
      </div>
    </FrameSlots>
  );
}
