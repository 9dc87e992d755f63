'use client';

import { memo, useMemo } from 'react';
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { axis } from '~/components/charts/seconds-lines';
import type { SeriesPointOut } from '~/lib/compare/series-metrics';
import { GROUP_COLORS, tick } from './format-metric';

/**
 * One metric over elapsed time for every group: the median of the repeats as a line and their
 * min-max as a band. All charts share a syncId, so hovering one shows the same second everywhere.
 */
export const BandChart = memo(function BandChart({
  points,
  labels,
  format,
}: {
  points: SeriesPointOut[];
  labels: string[];
  format: (v: number) => string;
}) {
  const data = useMemo(
    () =>
      points.map((p) => {
        const row: Record<string, number | [number, number] | null> = { second: p.second };
        p.values.forEach((v, gi) => {
          row[`m${gi}`] = v ? v.med : null;
          row[`b${gi}`] = v ? [v.min, v.max] : null;
        });
        return row;
      }),
    [points],
  );
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={data} syncId="compare" margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#f1f5f9" vertical={false} />
        <XAxis dataKey="second" type="number" domain={['dataMin', 'dataMax']} unit="s" {...axis} />
        <YAxis width={44} tickFormatter={tick} {...axis} />
        <Tooltip
          contentStyle={{ fontSize: 12, borderRadius: 8 }}
          labelFormatter={(s) => `${s} s`}
          formatter={(v, name) => {
            if (Array.isArray(v))
              return [`${format(Number(v[0]))} – ${format(Number(v[1]))}`, String(name)];
            return [typeof v === 'number' ? format(v) : String(v), String(name)];
          }}
        />
        {labels.map((l, gi) => (
          <Area
            key={`b${gi}`}
            dataKey={`b${gi}`}
            name={`${l} min–max`}
            stroke="none"
            fill={GROUP_COLORS[gi % GROUP_COLORS.length]}
            fillOpacity={0.14}
            isAnimationActive={false}
            connectNulls
            legendType="none"
          />
        ))}
        {labels.map((l, gi) => (
          <Line
            key={`m${gi}`}
            dataKey={`m${gi}`}
            name={`${l} median`}
            stroke={GROUP_COLORS[gi % GROUP_COLORS.length]}
            strokeWidth={1.75}
            dot={false}
            isAnimationActive={false}
            connectNulls
          />
        ))}
      </ComposedChart>
    </ResponsiveContainer>
  );
});
