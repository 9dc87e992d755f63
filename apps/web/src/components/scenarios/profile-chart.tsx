'use client';

import { Area, AreaChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ProfilePoint } from '@poolbench/scenarios';

/** The planned load over time: VUs (closed model) or req/s (open model). */
export function ProfileChart({
  profile,
  height = 96,
  axes = false,
}: {
  profile: ProfilePoint[];
  height?: number;
  axes?: boolean;
}) {
  const open = profile.some((p) => p.rate !== undefined);
  const data = profile.map((p) => ({ t: p.tSec, v: open ? (p.rate ?? 0) : (p.vus ?? 0) }));
  const unit = open ? 'req/s' : 'VUs';
  return (
    <div
      style={{ height }}
      role="img"
      aria-label={`Load profile: up to ${Math.max(0, ...data.map((d) => d.v))} ${unit} over ${data.at(-1)?.t ?? 0} s`}
    >
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart
          data={data}
          margin={{ top: 4, right: 4, bottom: axes ? 0 : 4, left: axes ? 0 : 4 }}
        >
          <defs>
            <linearGradient id="profileFill" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="#2f6fed" stopOpacity={0.35} />
              <stop offset="100%" stopColor="#2f6fed" stopOpacity={0.02} />
            </linearGradient>
          </defs>
          <XAxis
            dataKey="t"
            type="number"
            domain={[0, 'dataMax']}
            hide={!axes}
            tick={{ fontSize: 11, fill: '#64748b' }}
            unit="s"
          />
          <YAxis hide={!axes} tick={{ fontSize: 11, fill: '#64748b' }} width={40} />
          {axes ? (
            <Tooltip
              formatter={(v) => [`${v} ${unit}`, open ? 'Rate' : 'VUs']}
              labelFormatter={(t) => `${t} s`}
            />
          ) : null}
          <Area
            type="linear"
            dataKey="v"
            stroke="#1f57d6"
            strokeWidth={2}
            fill="url(#profileFill)"
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
