'use client';

import {
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { GROUP_COLORS, NINES_TICKS, formatValue, nines, tick } from './format-metric';

/** Latency by percentile from merged histograms; x is log(1/(1-p)) so the tail gets room. */
export function SpectrumChart({
  spectrum,
  labels,
}: {
  spectrum: Array<{ percentile: number; values: Array<number | null> }>;
  labels: string[];
}) {
  const data = spectrum
    .filter((s) => s.percentile >= 50 && s.percentile < 100)
    .map((s) => ({
      x: nines(s.percentile),
      p: s.percentile,
      ...Object.fromEntries(s.values.map((v, gi) => [`g${gi}`, v])),
    }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 4, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#f1f5f9" />
        <XAxis
          dataKey="x"
          type="number"
          domain={[NINES_TICKS[0]!.x, NINES_TICKS.at(-1)!.x]}
          ticks={NINES_TICKS.map((t) => t.x)}
          tickFormatter={(x: number) =>
            NINES_TICKS.find((t) => Math.abs(t.x - x) < 1e-9)?.label ?? ''
          }
          tick={{ fontSize: 11, fill: '#64748b' }}
          stroke="#cbd5e1"
        />
        <YAxis
          scale="log"
          domain={['auto', 'auto']}
          allowDataOverflow
          width={44}
          tickFormatter={tick}
          tick={{ fontSize: 11, fill: '#64748b' }}
          stroke="#cbd5e1"
        />
        <Tooltip
          contentStyle={{ fontSize: 12, borderRadius: 8 }}
          labelFormatter={(_, payload) =>
            `p${(payload?.[0]?.payload as { p?: number } | undefined)?.p ?? ''}`
          }
          formatter={(v, name) => [
            typeof v === 'number' ? formatValue(v, 'ms') : String(v),
            String(name),
          ]}
        />
        {labels.map((l, gi) => (
          <Line
            key={gi}
            dataKey={`g${gi}`}
            name={l}
            stroke={GROUP_COLORS[gi % GROUP_COLORS.length]}
            strokeWidth={2}
            dot={{ r: 2.5 }}
            isAnimationActive={false}
            connectNulls
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
