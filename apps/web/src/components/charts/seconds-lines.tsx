'use client';

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { yTicks } from './y-ticks';

/** The axes' look in every chart: small slate ticks, a light axis line. */
export const axis = { tick: { fontSize: 11, fill: '#64748b' }, stroke: '#cbd5e1' };

export interface LineSeries {
  key: string;
  label: string;
  color: string;
}

/**
 * Lines over the seconds of a run (`data[].second`), y ticks round and never repeated. `format`
 * writes the tooltip's values (and the ticks, when there are no round ones); `tooltipFormat`
 * overrides it for the tooltip alone.
 */
export function SecondsLines({
  data,
  series,
  format,
  tooltipFormat = format,
  dot = false,
}: {
  data: Array<Record<string, number | null>>;
  series: readonly LineSeries[];
  format?: (v: number) => string;
  tooltipFormat?: (v: number) => string;
  dot?: boolean;
}) {
  // round ticks whose labels never repeat (a 0.001 ms range no longer reads "0.00, 0.00, 0.00")
  const y = yTicks(
    data.flatMap((d) =>
      series.flatMap((s) => {
        const v = d[s.key];
        return typeof v === 'number' ? [v] : [];
      }),
    ),
  );
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#f1f5f9" vertical={false} />
        <XAxis dataKey="second" type="number" domain={['dataMin', 'dataMax']} unit="s" {...axis} />
        <YAxis
          width={48}
          domain={y.ticks.length ? [y.ticks[0]!, y.ticks.at(-1)!] : ['auto', 'auto']}
          ticks={y.ticks.length ? y.ticks : undefined}
          tickFormatter={y.ticks.length ? y.format : format}
          {...axis}
        />
        <Tooltip
          formatter={(v) => (typeof v === 'number' && tooltipFormat ? tooltipFormat(v) : v)}
          labelFormatter={(s) => `${s} s`}
          contentStyle={{ fontSize: 12 }}
        />
        <Legend wrapperStyle={{ fontSize: 11 }} iconSize={8} />
        {series.map((s) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stroke={s.color}
            dot={dot}
            strokeWidth={1.75}
            isAnimationActive={false}
            connectNulls
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
