import {
  ABSOLUTE_FLOORS,
  DEFAULT_FLOOR_PERCENT,
  TESTED_RUN_METRIC_KEYS,
} from '@poolbench/contracts/run-metric-keys';
import type { Comparison } from './types';

const sig = (v: number) =>
  Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);

export function formatValue(v: number | null, unit: string): string {
  if (v === null) return '–';
  if (unit === 'bytes') return `${sig(v / 2 ** 20)} MiB`;
  if (unit === 'count') return String(Math.round(v));
  return `${sig(v)} ${unit}`;
}

export function formatPercent(v: number): string {
  const s = sig(v);
  return `${v > 0 && Number(s) !== 0 ? '+' : ''}${s} %`;
}

/** "+25.3 % (95 % CI +18.1 % … +33.0 %)" */
export function formatChange(
  c: { estimate: number; lower: number; upper: number } | null,
  confidence: number,
): string {
  if (!c) return '–';
  return `${formatPercent(c.estimate)} (${+(confidence * 100).toFixed(1)} % CI ${formatPercent(c.lower)} … ${formatPercent(c.upper)})`;
}

export const cellLabel = (c: {
  poolConfig: { name: string } | null;
  scenario: { name: string } | null;
}) => `${c.poolConfig?.name ?? '?'} / ${c.scenario?.name ?? '?'}`;

/** "seconds 10–60 of each run", or "whole runs". */
export const windowLabel = (c: Pick<Comparison, 'window'>) =>
  c.window ? `seconds ${c.window.from}–${c.window.to} of each run` : 'whole runs';

/** "p99Ms, rps", or "all 12 tested metrics" when the comparison was not narrowed by --metrics. */
export function gatedOnLabel(
  c: Pick<Comparison, 'gatedOn'>,
  code: (key: string) => string = (k) => k,
): string {
  const keys = c.gatedOn;
  if (!keys) return 'all tested metrics';
  const all =
    keys.length === TESTED_RUN_METRIC_KEYS.length &&
    TESTED_RUN_METRIC_KEYS.every((k) => keys.includes(k));
  return all ? `all ${keys.length} tested metrics` : keys.map(code).join(', ');
}

/** 'baseline "main"', or 'pool config "10 conn" of this experiment' for --gate-base. */
export const againstLabel = (c: Pick<Comparison, 'baseline' | 'base'>) =>
  c.base ? `pool config "${c.base.name}" of this experiment` : `baseline "${c.baseline}"`;

/**
 * The floor every verdict used, said once per report: a metric's no-change band in percent is the
 * documented 5 % only on the log scale; metrics with an absolute floor have a band that depends on
 * their baseline (each verdict's reason then says so).
 */
export const FLOOR_NOTE = `no-change band: ±${DEFAULT_FLOOR_PERCENT} % for every metric except those with an absolute floor (${Object.entries(
  ABSOLUTE_FLOORS,
)
  .map(([k, f]) => `${k} ±${f.floor} ${f.unit}`)
  .join(', ')}), whose band in percent depends on the baseline and is explained in each verdict`;
