import { esc } from './escape';

export interface BandSeries {
  label: string;
  color: string;
  points: Array<{ x: number; med: number; min: number; max: number }>;
}

const W = 560;
const H = 220;
const M = { top: 12, right: 16, bottom: 30, left: 48 };

function niceTicks(min: number, max: number, count = 4): number[] {
  if (!(max > min)) return [min];
  const step0 = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= step0) ?? step0;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step)
    out.push(Number(v.toPrecision(12)));
  return out;
}

/**
 * A static line chart with a min-max band per series, as an inline SVG string (no scripts, no
 * external references), for the offline report and the share page. Hovering a point shows a
 * native tooltip via <title>.
 */
export function bandChartSvg(opts: {
  series: BandSeries[];
  format: (v: number) => string;
  xLabel?: (x: number) => string;
  xTicks?: Array<{ x: number; label: string }>;
  yFrom0?: boolean;
  ariaLabel: string;
}): string {
  const all = opts.series.flatMap((s) => s.points);
  if (all.length === 0)
    return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(opts.ariaLabel)}"><text x="${W / 2}" y="${H / 2}" text-anchor="middle" fill="#94a3b8" font-size="12">No samples</text></svg>`;
  const xs = all.map((p) => p.x);
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs, x0 + 1);
  let y0 =
    opts.yFrom0 === false
      ? Math.min(...all.map((p) => p.min))
      : Math.min(0, ...all.map((p) => p.min));
  let y1 = Math.max(...all.map((p) => p.max));
  if (!(y1 > y0)) y1 = y0 + 1;
  const ticks = niceTicks(y0, y1);
  y0 = Math.min(y0, ticks[0] ?? y0);
  y1 = Math.max(y1, ticks.at(-1) ?? y1);
  const sx = (x: number) => M.left + ((x - x0) / (x1 - x0)) * (W - M.left - M.right);
  const sy = (y: number) => H - M.bottom - ((y - y0) / (y1 - y0)) * (H - M.top - M.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(opts.ariaLabel)}" font-family="ui-sans-serif,system-ui,sans-serif">`,
  ];
  for (const t of ticks)
    parts.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${sy(t).toFixed(1)}" y2="${sy(t).toFixed(1)}" stroke="#eef2f7"/><text x="${M.left - 6}" y="${(sy(t) + 4).toFixed(1)}" text-anchor="end" font-size="12" fill="#64748b">${esc(opts.format(t))}</text>`,
    );
  const xt =
    opts.xTicks ??
    niceTicks(x0, x1, 6).map((x) => ({ x, label: opts.xLabel ? opts.xLabel(x) : String(x) }));
  for (const t of xt)
    if (t.x >= x0 && t.x <= x1)
      parts.push(
        `<text x="${sx(t.x).toFixed(1)}" y="${H - 10}" text-anchor="middle" font-size="12" fill="#64748b">${esc(t.label)}</text>`,
      );
  parts.push(
    `<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}" stroke="#cbd5e1"/>`,
  );
  for (const s of opts.series) {
    if (s.points.length === 0) continue;
    const band = [
      ...s.points.map((p) => `${sx(p.x).toFixed(1)},${sy(p.max).toFixed(1)}`),
      ...[...s.points].reverse().map((p) => `${sx(p.x).toFixed(1)},${sy(p.min).toFixed(1)}`),
    ].join(' ');
    parts.push(`<polygon points="${band}" fill="${s.color}" fill-opacity="0.12" stroke="none"/>`);
    parts.push(
      `<polyline points="${s.points.map((p) => `${sx(p.x).toFixed(1)},${sy(p.med).toFixed(1)}`).join(' ')}" fill="none" stroke="${s.color}" stroke-width="1.75" stroke-linejoin="round"/>`,
    );
    if (s.points.length <= 40)
      for (const p of s.points)
        parts.push(
          `<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.med).toFixed(1)}" r="3" fill="${s.color}"><title>${esc(`${s.label}: ${opts.format(p.med)} at ${opts.xLabel ? opts.xLabel(p.x) : p.x}`)}</title></circle>`,
        );
  }
  parts.push('</svg>');
  return parts.join('');
}

export function legendHtml(series: Array<{ label: string; color: string }>): string {
  return `<div class="legend">${series.map((s) => `<span><i style="background:${s.color}"></i>${esc(s.label)}</span>`).join('')}</div>`;
}
