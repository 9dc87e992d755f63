// Pure formatting shared by the compare page, the share page and the HTML report.
import type { Verdict } from '@poolbench/stats';

export const GROUP_COLORS = ['#1f57d6', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#0ea5e9'];

export function formatValue(v: number | null | undefined, unit: string): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  switch (unit) {
    case 'ms':
      return v >= 1000
        ? `${(v / 1000).toFixed(2)} s`
        : `${v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)} ms`;
    case 'req/s':
      return `${v.toLocaleString('en-US', { maximumFractionDigits: v < 100 ? 1 : 0 })} req/s`;
    case '%':
      return `${v.toFixed(v !== 0 && Math.abs(v) < 1 ? 3 : 1)} %`;
    case 'bytes': {
      const mib = v / 2 ** 20;
      return mib >= 1024 ? `${(mib / 1024).toFixed(2)} GiB` : `${mib.toFixed(1)} MiB`;
    }
    default:
      return v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  }
}

export function formatChange(
  c: { estimate: number; lower: number; upper: number } | null | undefined,
): { estimate: string; interval: string } {
  if (!c) return { estimate: '—', interval: '' };
  const f = (x: number) =>
    `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(Math.abs(x) < 10 ? 1 : 0)} %`;
  return { estimate: f(c.estimate), interval: `[${f(c.lower)}, ${f(c.upper)}]` };
}

export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined) return '—';
  if (p < 0.001) return '< 0.001';
  return p.toFixed(p < 0.01 ? 3 : 2);
}

export const VERDICT_LABEL: Record<Verdict, string> = {
  better: 'Better',
  worse: 'Worse',
  'no-change': 'No change',
  inconclusive: 'Inconclusive',
};
/** Tailwind classes and raw colours (for the offline report) per verdict. */
export const VERDICT_STYLE: Record<Verdict, { tw: string; fg: string; bg: string }> = {
  better: { tw: 'bg-emerald-50 text-emerald-700 ring-emerald-200', fg: '#047857', bg: '#ecfdf5' },
  worse: { tw: 'bg-red-50 text-red-700 ring-red-200', fg: '#b91c1c', bg: '#fef2f2' },
  'no-change': { tw: 'bg-slate-100 text-slate-700 ring-slate-200', fg: '#334155', bg: '#f1f5f9' },
  inconclusive: { tw: 'bg-amber-50 text-amber-800 ring-amber-200', fg: '#92400e', bg: '#fffbeb' },
};

/** log(1/(1-p)) so 90, 99, 99.9 … are evenly spaced; 100 is drawn one step past the last point. */
export function nines(p: number): number {
  return p >= 100 ? 6 : Math.log10(100 / (100 - p));
}
export const NINES_TICKS = [
  { x: nines(50), label: '50' },
  { x: nines(90), label: '90' },
  { x: nines(99), label: '99' },
  { x: nines(99.9), label: '99.9' },
  { x: nines(99.99), label: '99.99' },
  { x: nines(99.999), label: '99.999' },
];

/** Short axis ticks without the unit (the chart header names it), so labels never wrap. */
export function tick(v: number): string {
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 1_000_000) return `${(v / 1_000_000).toFixed(a >= 10_000_000 ? 0 : 1)}M`;
  if (a >= 10_000) return `${(v / 1000).toFixed(0)}k`;
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(a % 1 === 0 ? 0 : 1);
  if (a >= 1) return v.toFixed(a % 1 === 0 ? 0 : 1);
  return v.toFixed(2);
}

/**
 * Background of a matrix cell: only a decided verdict against the column's reference is coloured
 * (an inconclusive difference, however large its medians look, stays uncoloured).
 */
export function pivotCellColor(verdict: Verdict | null): string {
  return verdict === 'better' || verdict === 'worse' ? VERDICT_STYLE[verdict].bg : 'transparent';
}

/**
 * The coverage an interval really has, e.g. "90 %" with 3 runs per side: the Hodges–Lehmann
 * interval cannot reach the nominal 95 % with so few runs, and the header must not claim it does.
 */
export function formatCoverage(achieved: number | null | undefined): string {
  if (achieved === null || achieved === undefined) return '';
  const pct = 100 * achieved;
  return `${pct >= 99.95 ? '100' : pct.toFixed(pct >= 10 && Math.abs(pct - Math.round(pct)) < 0.05 ? 0 : 1)} %`;
}

/** A value of a script's own metric: ms and % as the table's, a counter's rate per second. */
export function formatScriptValue(
  v: number | null | undefined,
  unit: 'ms' | '/s' | '%' | '',
): string {
  if (unit === '/s') return v === null || v === undefined ? '—' : `${formatValue(v, '')} /s`;
  return formatValue(v, unit);
}

/** A candidate's difference from the baseline's value: signed, in the metric's unit and in %. */
export function formatScriptDiff(
  d: { absolute: number; percent: number | null } | null | undefined,
  unit: 'ms' | '/s' | '%' | '',
): string {
  if (!d) return '—';
  const sign = d.absolute > 0 ? '+' : d.absolute < 0 ? '−' : '±';
  const abs =
    unit === '%'
      ? `${Math.abs(d.absolute).toFixed(1)} pp`
      : formatScriptValue(Math.abs(d.absolute), unit);
  const pct =
    d.percent === null || unit === '%'
      ? ''
      : ` (${d.percent > 0 ? '+' : d.percent < 0 ? '−' : '±'}${Math.abs(d.percent).toFixed(Math.abs(d.percent) < 10 ? 1 : 0)} %)`;
  return `${sign}${abs}${pct}`;
}

/** A row of the script's metrics: its name and what it reads (`login_ms p95`, `orders rate`). */
export function scriptMetricLabel(r: { name: string; stat: string }): string {
  return `${r.name} ${r.stat}`;
}
