import {
  cellLabel,
  FLOOR_NOTE,
  formatChange,
  formatValue,
  gatedOnLabel,
  windowLabel,
} from '../format';
import type { RunResult } from '../types';
import { scriptComparisonParts, scriptMetricValue, scriptValue } from './text';

const ICON = {
  worse: '❌ worse',
  better: '🟢 better',
  'no-change': '✅ no change',
  inconclusive: '⚪ inconclusive',
} as const;
const HEADLINE: Record<RunResult['outcome'], string> = {
  pass: '✅ pass',
  regression: '❌ regression',
  threshold: '❌ threshold failed',
  'regression+threshold': '❌ regression and threshold failed',
  'suspected-regression': '⚠️ suspected regression (not yet settled: add repeats)',
  incomplete: '⚠️ incomplete (too few valid runs, or too many crashed or invalid, to judge)',
  hypothesis: '❌ a hypothesis did not hold',
  started: '⏳ started',
  error: '⚠️ error',
};

const cellText = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A table that reads well as a pull-request comment (GitHub and GitLab Markdown). */
export function toMarkdown(r: RunResult): string {
  const out = [`### PoolBench: ${HEADLINE[r.outcome]}`, ''];
  const links = [`experiment [${cellText(r.experiment.name)}](${r.experiment.webUrl})`];
  if (r.comparison)
    links.push(
      r.comparison.base
        ? `against pool config \`${r.comparison.base.name}\` of this experiment`
        : `baseline \`${r.comparison.baseline}\``,
      `gated on: ${gatedOnLabel(r.comparison, (k) => `\`${k}\``)}`,
      `over ${windowLabel(r.comparison)}`,
    );
  if (r.shareUrl) links.push(`[share link](${r.shareUrl})`);
  out.push(links.join(' · '), '');
  if (r.comparison) {
    out.push(
      `| Pool config / scenario | Metric | ${r.comparison.base ? cellText(r.comparison.base.name) : 'Baseline'} | This run | Change | Verdict |`,
      '|---|---|---:|---:|---|---|',
    );
    for (const c of r.comparison.cells) {
      if (!c.baseline) {
        out.push(
          `| ${cellText(cellLabel(c))} | – | – | – | no baseline \`${r.comparison.baseline}\` | ⚪ |`,
        );
        continue;
      }
      for (const m of c.metrics) {
        out.push(
          `| ${cellText(cellLabel(c))} | ${m.label} | ${formatValue(m.baselineMedian, m.unit)} | ${formatValue(m.candidateMedian, m.unit)} | ${formatChange(m.changePercent, m.achievedConfidence ?? m.confidence)} | ${ICON[m.verdict]} |`,
        );
      }
    }
    out.push(
      '',
      `<sub>Medians over ${r.comparison.cells[0]?.candidateRuns ?? 0} runs per side; change is the Hodges–Lehmann estimate with its interval; a verdict needs the whole interval beyond the floor and p < 0.05 after adjusting across the gated metrics; ${FLOOR_NOTE}.</sub>`,
      '',
    );
    const scripted = r.comparison.cells.filter((c) => c.scriptMetrics?.length);
    if (scripted.length) {
      out.push(
        `| Pool config / scenario | Script metric | ${r.comparison.base ? cellText(r.comparison.base.name) : 'Baseline'} | This run | Difference |`,
        '|---|---|---:|---:|---:|',
      );
      for (const c of scripted)
        for (const m of c.scriptMetrics ?? []) {
          const v = scriptComparisonParts(m);
          out.push(
            `| ${cellText(cellLabel(c))} | ${cellText(`${m.name} ${m.stat} (${m.type})`)} | ${v.baseline} | ${v.candidate} | ${v.difference || '–'} |`,
          );
        }
      out.push(
        '',
        "<sub>The script's own k6 metrics: medians over whole runs, descriptive, never part of a verdict.</sub>",
        '',
      );
    }
  } else if (r.summary) {
    out.push(
      '| Pool config / scenario | Runs | p50 | p95 | p99 | Throughput | Error rate |',
      '|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const c of r.summary.cells) {
      const m = (k: string) => c.metrics.find((x) => x.key === k);
      const f = (k: string) => formatValue(m(k)?.median ?? null, m(k)?.unit ?? '');
      out.push(
        `| ${cellText(cellLabel(c))} | ${c.succeeded}/${c.runs} | ${f('p50Ms')} | ${f('p95Ms')} | ${f('p99Ms')} | ${f('rps')} | ${f('errorRate')} |`,
      );
    }
    out.push('');
    const scripted = r.summary.cells.filter((c) => c.scriptMetrics?.length);
    if (scripted.length) {
      out.push(
        '| Pool config / scenario | Script metric | Samples | Value |',
        '|---|---|---:|---|',
      );
      for (const c of scripted)
        for (const m of c.scriptMetrics ?? [])
          out.push(
            `| ${cellText(cellLabel(c))} | ${cellText(`${m.name} (${m.type})`)} | ${scriptValue(m.count, '')} | ${scriptMetricValue(m)} |`,
          );
      out.push('');
    }
  }
  const failures = (r.summary?.cells ?? []).flatMap((c) =>
    c.thresholds.failures.map(
      (f) =>
        `- ${cellText(cellLabel(c))}: \`${f.metric} ${f.expr}\` observed ${f.observed ?? 'nothing'} (run ${f.runId})`,
    ),
  );
  if (failures.length) out.push('**Thresholds failed**', '', ...failures.slice(0, 20), '');
  if (r.problems.length) out.push(...r.problems.map((p) => `> ${cellText(p)}`), '');
  return out.join('\n');
}
