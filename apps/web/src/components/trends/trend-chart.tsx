'use client';

import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatValue } from '~/components/compare/format-metric';
import { yTicks } from '~/components/charts/y-ticks';
import type { RouterOutputs } from '~/lib/trpc/types';
import { changeLabel, type TrendChangePoint } from './change-points-card';

type Series = RouterOutputs['trend']['series'];
export type TrendMetricKey = keyof Series['points'][number]['metrics'];

const shortDate = (d: Date) => new Date(d).toISOString().slice(5, 16).replace('T', ' ');

/**
 * One metric of a trend: each experiment's median over its runs (x in experiment order, labelled
 * with its date), the baseline's median as a dashed line, a red dot where the metric's verdict
 * against the baseline is worse, and a vertical line before the first experiment of each change
 * point of the history (red for a regression, green for an improvement, labelled with the change).
 */
export function TrendChart({
  series,
  metric,
  unit,
  changePoints = [],
}: {
  series: Series;
  metric: TrendMetricKey;
  unit: string;
  /** this metric's change points (trend.changePoints) */
  changePoints?: TrendChangePoint[];
}) {
  const data = series.points.map((p, i) => ({
    i,
    label: `${shortDate(p.createdAt)}${p.commit ? ` · ${p.commit.slice(0, 7)}` : ''}`,
    value: p.metrics[metric].median,
    verdict: p.metrics[metric].verdict,
    suspected: p.metrics[metric].suspected,
    name: p.name,
    n: p.metrics[metric].n,
  }));
  const base = series.baseline?.medians[metric] ?? null;
  const y = yTicks([
    ...data.flatMap((d) => (typeof d.value === 'number' ? [d.value] : [])),
    ...(base !== null ? [base] : []),
  ]);
  const [lo, hi] = [y.ticks[0], y.ticks.at(-1)];
  const nearBottom =
    base !== null && lo !== undefined && hi !== undefined && base - lo < (hi - lo) * 0.15;
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#f1f5f9" />
        <XAxis
          dataKey="i"
          type="number"
          domain={[-0.5, Math.max(0.5, data.length - 0.5)]}
          ticks={data.map((d) => d.i)}
          tickFormatter={(i: number) => data[i]?.label ?? ''}
          tick={{ fontSize: 10, fill: '#64748b' }}
          stroke="#cbd5e1"
        />
        <YAxis
          domain={y.ticks.length ? [y.ticks[0]!, y.ticks.at(-1)!] : ['auto', 'auto']}
          ticks={y.ticks}
          width={52}
          tickFormatter={y.format}
          tick={{ fontSize: 11, fill: '#64748b' }}
          stroke="#cbd5e1"
        />
        <Tooltip
          contentStyle={{ fontSize: 12, borderRadius: 8 }}
          labelFormatter={(_, payload) => {
            const d = payload?.[0]?.payload as (typeof data)[number] | undefined;
            return d
              ? `${d.name} (${d.label}, ${d.n} runs)${d.verdict ? ` · ${d.verdict} vs baseline` : ''}`
              : '';
          }}
          formatter={(v) => [
            typeof v === 'number' ? formatValue(v, unit) : String(v),
            'median of runs',
          ]}
        />
        {base !== null ? (
          <ReferenceLine
            y={base}
            stroke="#64748b"
            strokeDasharray="6 4"
            label={{
              value: `baseline ${series.baseline!.name}`,
              // below the line, unless the line runs along the bottom: then above it, clear of the x-axis
              position: nearBottom ? 'insideBottomRight' : 'insideTopRight',
              fontSize: 11,
              fill: '#64748b',
            }}
          />
        ) : null}
        {changePoints.map((c) => {
          const at = series.points.findIndex((p) => p.experimentId === c.after.experimentId);
          if (at < 0) return null;
          const color = c.kind === 'regression' ? '#dc2626' : '#16a34a';
          return (
            <ReferenceLine
              key={c.after.experimentId}
              x={at - 0.5}
              stroke={color}
              strokeWidth={2}
              data-testid={`trend-change-point-${c.kind}`}
              label={{
                value: changeLabel(c),
                position: 'insideTopLeft',
                fontSize: 11,
                fill: color,
              }}
            />
          );
        })}
        <Line
          dataKey="value"
          stroke="#2563eb"
          strokeWidth={2}
          isAnimationActive={false}
          connectNulls
          dot={(props: { cx?: number; cy?: number; index?: number }) => {
            const d = data[props.index ?? 0];
            const worse = d?.verdict === 'worse';
            const suspected = !worse && d?.suspected;
            return (
              <circle
                key={props.index}
                cx={props.cx}
                cy={props.cy}
                r={worse || suspected ? 6 : 3.5}
                fill={worse ? '#dc2626' : suspected ? '#d97706' : '#2563eb'}
                stroke="#fff"
                strokeWidth={1.5}
                data-testid={
                  worse ? 'trend-regression' : suspected ? 'trend-suspected' : 'trend-point'
                }
              />
            );
          }}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}
