import {
  GROUP_COLORS,
  NINES_TICKS,
  VERDICT_LABEL,
  VERDICT_STYLE,
  formatChange,
  formatP,
  formatScriptDiff,
  formatScriptValue,
  formatValue,
  nines,
  pivotCellColor,
  tick,
} from '~/components/compare/format-metric';
import type { HypothesisView } from '~/server/api/routers/hypothesis.types';
import type { Comparison } from '../compare/build-comparison';
import { SERIES_METRICS } from '~/lib/compare/series-metrics';
import type { Pivot } from '../compare/pivot';
import { esc } from './escape';

export { headline } from '~/components/compare/headline';
import { bandChartSvg, legendHtml } from './svg-charts';

const CSS = `
*{box-sizing:border-box}body{margin:0;background:#f8fafc;color:#0f172a;font:14px/1.5 ui-sans-serif,system-ui,-apple-system,"Segoe UI",sans-serif}
.wrap{max-width:1200px;margin:0 auto;padding:28px 24px 48px}
header.top{display:flex;align-items:center;justify-content:space-between;gap:16px;margin-bottom:20px}
.brand{display:flex;align-items:center;gap:8px;font-weight:600;color:#1f57d6}.brand b{display:inline-grid;place-items:center;width:26px;height:26px;border-radius:7px;background:#1f57d6;color:#fff;font-size:13px}
.pill{font-size:12px;color:#475569;background:#fff;border:1px solid #e2e8f0;border-radius:999px;padding:3px 10px}
h1{font-size:24px;letter-spacing:-.01em;margin:0 0 4px}h2{font-size:14px;margin:0}.sub{color:#64748b;margin:0 0 20px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:12px;box-shadow:0 1px 2px rgba(15,23,42,.04);margin-bottom:20px;overflow:hidden}
.card>.hd{padding:14px 18px;border-bottom:1px solid #f1f5f9;display:flex;justify-content:space-between;align-items:baseline;gap:12px}.hd small{color:#64748b}
.groups{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px;margin-bottom:20px}
.group{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:12px 14px;border-top:3px solid var(--c)}
.group .n{font-weight:600}.group .m{color:#64748b;font-size:12px}.tag{display:inline-block;font-size:11px;font-weight:600;border-radius:999px;padding:1px 8px;background:#eff4ff;color:#1f57d6;margin-left:6px}
table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}th,td{padding:9px 14px;text-align:right;white-space:nowrap;border-bottom:1px solid #f1f5f9}
th{background:#f8fafc;font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:#64748b;font-weight:600}th:first-child,td:first-child{text-align:left}
td .ci{display:block;color:#64748b;font-size:11px}.verdict{display:inline-block;border-radius:999px;padding:1px 8px;font-size:11px;font-weight:600}
.warn{background:#fffbeb;border:1px solid #fde68a;color:#78350f;border-radius:10px;padding:10px 14px;margin-bottom:10px;font-size:13px}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(360px,1fr));gap:16px;padding:16px}
.chart h3{font-size:13px;margin:0 0 6px;display:flex;justify-content:space-between}.chart h3 small{color:#64748b;font-weight:400}
.chart svg{width:100%;height:auto;display:block}.charts.one{grid-template-columns:minmax(0,820px)}a.pill{text-decoration:none;color:#1f57d6}a.pill:hover{background:#eff4ff}
.legend{display:flex;flex-wrap:wrap;gap:14px;padding:10px 18px 0;font-size:12px;color:#334155}.legend i{display:inline-block;width:10px;height:10px;border-radius:3px;margin-right:6px;vertical-align:-1px}
.scroll{overflow-x:auto}.scroll:focus-visible{outline:2px solid #1f57d6;outline-offset:-2px}.muted{color:#64748b}footer{color:#64748b;font-size:12px;text-align:center;margin-top:28px}
.charts{grid-template-columns:repeat(auto-fill,minmax(min(360px,100%),1fr))}
@media (max-width:640px){
.wrap{padding:16px 12px 32px}header.top{flex-wrap:wrap}.card>.hd{flex-wrap:wrap}.charts{padding:10px}
table.cmp thead{display:none}table.cmp tr{display:block;padding:6px 0;border-bottom:1px solid #e2e8f0}
table.cmp td{display:flex;justify-content:space-between;align-items:baseline;gap:12px;white-space:normal;border:0;padding:3px 14px}
table.cmp td::before{content:attr(data-label);color:#64748b;font-size:11px;text-transform:uppercase;letter-spacing:.04em;text-align:left}
table.cmp td:first-child{font-weight:600}table.cmp td:first-child::before{content:none}
}
`;

export interface ReportOptions {
  title: string;
  subtitle: string;
  /** shown on share pages: "shared read-only", expiry */
  badge?: string;
  description: string;
  generatedAt: Date;
  pivot?: Pivot | null;
  /** links rendered in the header (share page exports); omitted in offline reports */
  links?: Array<{ href: string; label: string }>;
  /** the experiment's pre-registered hypotheses with their decisions (experiment share links) */
  hypotheses?: HypothesisView[] | null;
}

const HYPOTHESIS_STATUS: Record<string, { label: string; color: string }> = {
  pending: { label: 'Pending', color: '#64748b' },
  holds: { label: 'Holds', color: '#047857' },
  does_not_hold: { label: 'Does not hold', color: '#b91c1c' },
  unresolved: { label: 'Unresolved', color: '#92400e' },
};

function hypothesesHtml(hs: HypothesisView[]): string {
  const num = (v: number) =>
    `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v) < 10 ? Math.abs(v).toFixed(1) : Math.abs(v).toFixed(0)}`;
  const rows = hs
    .map((h) => {
      const s = HYPOTHESIS_STATUS[h.status] ?? HYPOTHESIS_STATUS.pending!;
      const unit = h.changeUnit === 'percent' ? ' %' : '';
      const change =
        h.change !== null
          ? `${num(h.change)}${unit}${h.low !== null && h.high !== null ? ` [${num(h.low)}, ${num(h.high)}]` : ''}`
          : '—';
      return `<tr><td><b style="color:${s.color}">${esc(s.label)}</b></td><td>${esc(h.statement)}${h.claim ? `<span class="ci">“${esc(h.claim)}”</span>` : ''}</td><td>${esc(change)}<span class="ci">${h.p !== null ? `p ${esc(formatP(h.p))} · ` : ''}${h.runsUsed} runs</span></td><td>${esc(h.reason ?? 'decided when the experiment ends')}</td></tr>`;
    })
    .join('');
  return `<table><thead><tr><th>Decision</th><th>Hypothesis</th><th>Change</th><th>Why</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function tableHtml(c: Comparison): string {
  const head = c.groups
    .map((g, i) =>
      i === c.baselineIndex
        ? `<th>${esc(g.label)} <span class="tag">baseline</span><br><span class="muted">median [min–max]</span></th>`
        : `<th>${esc(g.label)}<br><span class="muted">median · Δ% [95% CI] · p · n</span></th><th>verdict</th>`,
    )
    .join('');
  const body = c.rows
    .map((r) => {
      const cells = c.groups
        .map((_, i) => {
          const cell = r.cells[i]!;
          const g = esc(c.groups[i]!.label);
          if (i === c.baselineIndex)
            return `<td data-label="${g} (baseline)"><span>${esc(formatValue(cell.median, r.unit))}<span class="ci">${cell.n === 0 ? 'no data' : cell.n === 1 ? 'single run' : `[${esc(formatValue(cell.min, r.unit))} – ${esc(formatValue(cell.max, r.unit))}] · n=${cell.n}`}</span></span></td>`;
          const cmp = r.comparisons[i];
          const ch = formatChange(cmp?.changePercent);
          const v = cmp?.verdict;
          const verdict = !r.tested
            ? '<span class="muted">not tested</span>'
            : v
              ? `<span class="verdict" style="color:${VERDICT_STYLE[v].fg};background:${VERDICT_STYLE[v].bg}" title="${esc(cmp?.reason ?? '')}">${VERDICT_LABEL[v]}</span>`
              : '—';
          return `<td data-label="${g}"><span>${esc(formatValue(cmp?.median, r.unit))}<span class="ci">${r.tested ? `${esc(ch.estimate)} ${esc(ch.interval)} · p ${esc(formatP(cmp?.pValue))} · n=${cmp?.n ?? 0}` : `n=${cmp?.n ?? 0}`}</span></span></td><td data-label="verdict">${verdict}</td>`;
        })
        .join('');
      return `<tr><td>${esc(r.label)}${r.tested ? '' : ' <span class="muted">(shown, never tested)</span>'}</td>${cells}</tr>`;
    })
    .join('');
  return `<table class="cmp"><thead><tr><th>Metric</th>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function mergedHtml(c: Comparison): string {
  const cols = ['p50', 'p90', 'p95', 'p99', 'p999', 'max'] as const;
  return `<table><thead><tr><th>All requests (merged histograms)</th><th>requests</th>${cols.map((k) => `<th>${k === 'p999' ? 'p99.9' : k}</th>`).join('')}</tr></thead><tbody>${c.groups
    .map(
      (g) =>
        `<tr><td><span style="color:${GROUP_COLORS[c.groups.indexOf(g) % GROUP_COLORS.length]}">●</span> ${esc(g.label)}</td><td>${g.requests.toLocaleString('en-US')}</td>${cols.map((k) => `<td>${esc(formatValue(g.merged?.[k], 'ms'))}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;
}

function scriptMetricsHtml(c: Comparison): string {
  const head = c.groups
    .map((g, i) =>
      i === c.baselineIndex
        ? `<th>${esc(g.label)} <span class="tag">baseline</span></th>`
        : `<th>${esc(g.label)}</th><th>vs baseline</th>`,
    )
    .join('');
  const body = c.scriptMetrics
    .map(
      (r) =>
        `<tr><td>${esc(r.name)}</td><td>${esc(r.stat)} <span class="muted">${esc(r.type)}</span></td>${r.cells
          .map((cell, gi) =>
            gi === c.baselineIndex
              ? `<td>${esc(formatScriptValue(cell.median, r.unit))}</td>`
              : `<td>${esc(formatScriptValue(cell.median, r.unit))}</td><td>${esc(formatScriptDiff(r.diffs[gi], r.unit))}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Script metric</th><th>stat</th>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function pivotHtml(p: Pivot): string {
  return `<table><thead><tr><th>Pool config \\ scenario</th>${p.columns.map((c) => `<th>${esc(c.name)}</th>`).join('')}</tr></thead><tbody>${p.rows
    .map(
      (r) =>
        `<tr><td>${esc(r.name)}</td>${r.cells.map((x) => `<td style="background:${pivotCellColor(x.verdict)}">${esc(formatValue(x.median, p.unit))}<span class="ci">n=${x.n}${x.verdict ? ` · ${VERDICT_LABEL[x.verdict]}` : ''}</span></td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;
}

/**
 * A comparison as one self-contained HTML document: inline CSS and inline SVG, no scripts, no
 * fonts, images or links to fetch, so it opens offline and shows the same numbers as the app.
 */
export function renderReportHtml(c: Comparison, o: ReportOptions): string {
  const series = (key: (typeof SERIES_METRICS)[number]['key']) =>
    c.groups.map((g, gi) => ({
      label: g.label,
      color: GROUP_COLORS[gi % GROUP_COLORS.length]!,
      points: c.series[key].flatMap((p) => {
        const b = p.values[gi];
        return b ? [{ x: p.second, ...b }] : [];
      }),
    }));
  const charts = SERIES_METRICS.filter((m) =>
    c.series[m.key].some((p) =>
      p.values.some((v) => v !== null && (!m.key.startsWith('upstream') || v.max > 0)),
    ),
  )
    .map(
      (m) =>
        `<div class="chart"><h3>${esc(m.label)} <small>${esc(m.unit)} · median and min–max of repeats</small></h3>${bandChartSvg({ series: series(m.key), format: tick, xLabel: (x) => `${x} s`, ariaLabel: m.label })}</div>`,
    )
    .join('');
  const spectrum = c.groups.map((g, gi) => ({
    label: g.label,
    color: GROUP_COLORS[gi % GROUP_COLORS.length]!,
    points: c.spectrum
      .filter((s) => s.percentile >= 50 && s.percentile < 100 && s.values[gi] !== null)
      .map((s) => ({
        x: nines(s.percentile),
        med: s.values[gi]!,
        min: s.values[gi]!,
        max: s.values[gi]!,
      })),
  }));
  const legend = legendHtml(
    c.groups.map((g, i) => ({ label: g.label, color: GROUP_COLORS[i % GROUP_COLORS.length]! })),
  );
  const groupsHtml = c.groups
    .map(
      (g, i) =>
        `<div class="group" style="--c:${GROUP_COLORS[i % GROUP_COLORS.length]}"><div class="n">${esc(g.label)}${i === c.baselineIndex ? '<span class="tag">baseline</span>' : ''}</div><div class="m">${esc(g.strategy ?? '')} · ${esc(g.scenarioName)} · ${g.repeats} ${g.repeats === 1 ? 'run' : 'runs'}</div><div class="m">${esc(g.experimentName)} on ${esc(g.targetName)}</div></div>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer">
<title>${esc(o.title)} · PoolBench</title>
<meta property="og:type" content="website"><meta property="og:site_name" content="PoolBench"><meta property="og:title" content="${esc(o.title)}"><meta property="og:description" content="${esc(o.description)}">
<meta name="twitter:card" content="summary"><meta name="twitter:title" content="${esc(o.title)}"><meta name="twitter:description" content="${esc(o.description)}"><meta name="description" content="${esc(o.description)}">
<style>${CSS}</style></head><body><div class="wrap">
<header class="top"><div class="brand"><b>P</b>PoolBench</div><div>${(o.links ?? []).map((l) => `<a class="pill" href="${esc(l.href)}" rel="nofollow">${esc(l.label)}</a> `).join('')}${o.badge ? `<span class="pill">${esc(o.badge)}</span>` : ''}</div></header>
<h1>${esc(o.title)}</h1><p class="sub">${esc(o.subtitle)}</p>
<div class="groups">${groupsHtml}</div>
${c.warnings.map((w) => `<div class="warn">⚠ ${esc(w.message)}</div>`).join('')}
<section class="card"><div class="hd"><h2>${c.groups.length > 1 ? 'Comparison' : 'Summary'}</h2><small>one value per run${c.window ? ` over seconds ${c.window.from}–${c.window.to}` : ''} · Mann–Whitney U, Hodges–Lehmann 95 % CI, BH-adjusted p · 5 % practical floor</small></div><div class="scroll" tabindex="0" role="region" aria-label="Comparison">${tableHtml(c)}</div></section>
<section class="card"><div class="hd"><h2>All requests</h2><small>ms · percentiles of every request of every repeat${c.window ? `, seconds ${c.window.from}–${c.window.to}` : ''}; descriptive, not tested</small></div><div class="scroll" tabindex="0" role="region" aria-label="All requests">${mergedHtml(c)}</div></section>
${c.scriptMetrics.length ? `<section class="card"><div class="hd"><h2>Script metrics</h2><small>the script's own k6 metrics and groups' durations · median of runs · whole runs; descriptive, not tested</small></div><div class="scroll" tabindex="0" role="region" aria-label="Script metrics">${scriptMetricsHtml(c)}</div></section>` : ''}
${o.hypotheses?.length ? `<section class="card"><div class="hd"><h2>Hypotheses</h2><small>pre-registered before the first run · decided when the experiment ended</small></div><div class="scroll" tabindex="0" role="region" aria-label="Hypotheses">${hypothesesHtml(o.hypotheses)}</div></section>` : ''}
${o.pivot ? `<section class="card"><div class="hd"><h2>${esc(o.pivot.label)} by pool config and scenario</h2><small>median of repeats</small></div><div class="scroll" tabindex="0" role="region" aria-label="By pool config and scenario">${pivotHtml(o.pivot)}</div></section>` : ''}
<section class="card"><div class="hd"><h2>Latency by percentile</h2><small>ms · merged histograms · x on a log scale of 1/(1−p)</small></div>${legend}<div class="charts one"><div class="chart">${bandChartSvg({ series: spectrum, format: tick, xTicks: NINES_TICKS, xLabel: (x) => `p${(100 - 100 / 10 ** x).toFixed(3).replace(/\.?0+$/, '')}`, ariaLabel: 'Latency by percentile' })}</div></div></section>
<section class="card"><div class="hd"><h2>Over time</h2><small>aligned on elapsed seconds${c.durationSeconds ? ` · ${c.durationSeconds} s` : ''}</small></div>${legend}<div class="charts">${charts}</div></section>
<footer>Generated ${esc(o.generatedAt.toISOString().replace('T', ' ').slice(0, 16))} UTC by PoolBench · results only: no scripts, target addresses or secrets are included.</footer>
</div></body></html>`;
}
