'use client';

import { memo, useMemo } from 'react';
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { axis } from '~/components/charts/seconds-lines';
import { ChartFrame } from '~/components/charts/chart-frame';
import type { AdvisorStateView } from './advisor-types';

const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/**
 * The advisor's evidence against the setting: p99 latency (median of a setting's runs, their range
 * as a band, the SLO as a line) and throughput (median, band, and the Universal Scalability Law
 * fitted to it).
 */
export const AdvisorCharts = memo(function AdvisorCharts({
  state,
  knob,
  p99LimitMs,
  recommended,
}: {
  state: AdvisorStateView;
  knob: string;
  p99LimitMs: number | null;
  recommended: number | null;
}) {
  const data = useMemo(() => {
    const usl = new Map((state.usl?.points ?? []).map((p) => [p.n, p.fitted]));
    return state.settings
      .filter((s) => s.runs > 0)
      .map((s) => ({
        setting: s.setting,
        p99: s.p99Median ?? null,
        p99Band:
          s.p99Low !== null &&
          s.p99Low !== undefined &&
          s.p99High !== null &&
          s.p99High !== undefined
            ? [s.p99Low, s.p99High]
            : null,
        rps: s.rpsMedian ?? null,
        rpsBand:
          s.rpsLow !== null &&
          s.rpsLow !== undefined &&
          s.rpsHigh !== null &&
          s.rpsHigh !== undefined
            ? [s.rpsLow, s.rpsHigh]
            : null,
        usl: usl.get(s.setting) ?? null,
      }));
  }, [state]);
  if (data.length === 0) return null;
  const x = (
    <XAxis
      dataKey="setting"
      type="number"
      domain={['dataMin', 'dataMax']}
      allowDecimals={false}
      label={{ value: knob, position: 'insideBottomRight', offset: -2, fontSize: 11 }}
      {...axis}
    />
  );
  const tooltip = (
    <Tooltip
      contentStyle={{ fontSize: 12, borderRadius: 8 }}
      labelFormatter={(s) => `${knob} ${s}`}
      formatter={(v, name) =>
        Array.isArray(v)
          ? [`${fmt(Number(v[0]))} – ${fmt(Number(v[1]))}`, String(name)]
          : [typeof v === 'number' ? fmt(v) : String(v), String(name)]
      }
    />
  );
  const pick =
    recommended !== null ? (
      <ReferenceLine
        x={recommended}
        stroke="#059669"
        strokeDasharray="4 3"
        label={{ value: 'recommended', fontSize: 10, fill: '#059669', position: 'top' }}
      />
    ) : null;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartFrame title="p99 latency by setting" unit="ms" testId="advisor-p99-chart" height="h-64">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 12, right: 12, bottom: 4, left: 0 }}>
            <CartesianGrid stroke="#f1f5f9" vertical={false} />
            {x}
            <YAxis
              width={48}
              scale="log"
              domain={['auto', 'auto']}
              allowDataOverflow
              tickFormatter={fmt}
              {...axis}
            />
            {tooltip}
            <Legend wrapperStyle={{ fontSize: 11 }} />
            <Area
              dataKey="p99Band"
              name="p99 range of the runs"
              stroke="none"
              fill="#6366f1"
              fillOpacity={0.15}
              isAnimationActive={false}
              connectNulls
            />
            <Line
              dataKey="p99"
              name="p99, median of the runs"
              stroke="#4f46e5"
              strokeWidth={2}
              isAnimationActive={false}
              connectNulls
            />
            {p99LimitMs !== null ? (
              <ReferenceLine
                y={p99LimitMs}
                stroke="#dc2626"
                strokeDasharray="6 3"
                label={{
                  value: `SLO ${p99LimitMs} ms`,
                  fontSize: 10,
                  fill: '#dc2626',
                  position: 'insideTopLeft',
                }}
              />
            ) : null}
            {pick}
          </ComposedChart>
        </ResponsiveContainer>
      </ChartFrame>
      <ChartFrame
        title="Throughput by setting"
        unit="req/s"
        testId="advisor-rps-chart"
        height="h-64"
      >
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 12, right: 12, bottom: 4, left: 0 }}>
            <CartesianGrid stroke="#f1f5f9" vertical={false} />
            {x}
            <YAxis width={48} tickFormatter={fmt} {...axis} />
            {tooltip}
            <Legend wrapperStyle={{ fontSize: 11 }} />
            <Area
              dataKey="rpsBand"
              name="range of the runs"
              stroke="none"
              fill="#0ea5e9"
              fillOpacity={0.15}
              isAnimationActive={false}
              connectNulls
            />
            <Line
              dataKey="rps"
              name="median of the runs"
              stroke="#0284c7"
              strokeWidth={2}
              isAnimationActive={false}
              connectNulls
            />
            {state.usl ? (
              <Line
                dataKey="usl"
                name="USL fit"
                stroke="#f59e0b"
                strokeDasharray="5 4"
                dot={false}
                isAnimationActive={false}
                connectNulls
              />
            ) : null}
            {pick}
          </ComposedChart>
        </ResponsiveContainer>
      </ChartFrame>
    </div>
  );
});
