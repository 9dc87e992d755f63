import {
  againstLabel,
  cellLabel,
  formatChange,
  formatValue,
  gatedOnLabel,
  windowLabel,
} from '../format';
import type { Experiment, RunResult } from '../types';
import { hypothesisLines } from '../hypothesis-gate';

/** The human-readable result; regressions name the metric, the change and its interval. */
export function toText(r: RunResult): string {
  const lines = [
    `Experiment ${r.experiment.name} (${r.experiment.id}): ${r.experiment.status}`,
    `  ${r.experiment.webUrl}`,
  ];
  if (r.shareUrl) lines.push(`  share: ${r.shareUrl}`);
  lines.push(`  runs: ${runStatusCounts(r.experiment.runs)}`);
  if (r.comparison) {
    lines.push(
      `Compared with ${againstLabel(r.comparison)} (gated on: ${gatedOnLabel(r.comparison)}; over ${windowLabel(r.comparison)}):`,
    );
    for (const c of r.comparison.cells) {
      if (!c.baseline) {
        lines.push(`  ${cellLabel(c)}: no baseline`);
        continue;
      }
      lines.push(
        `  ${cellLabel(c)} (${c.candidateRuns} runs vs ${c.baseline.runs} ${r.comparison.base ? `runs of ${r.comparison.base.name}` : 'baseline runs'}):`,
      );
      for (const m of c.metrics) {
        const tag = m.verdict === 'worse' ? 'REGRESSION' : m.verdict.toUpperCase();
        lines.push(
          `    ${tag.padEnd(12)} ${m.label}: ${formatValue(m.baselineMedian, m.unit)} -> ${formatValue(m.candidateMedian, m.unit)}, change ${formatChange(m.changePercent, m.achievedConfidence ?? m.confidence)}`,
        );
      }
    }
  } else if (r.summary) {
    for (const c of r.summary.cells) {
      const m = (k: string) => c.metrics.find((x) => x.key === k);
      lines.push(
        `  ${cellLabel(c)}: ${c.succeeded}/${c.runs} runs, p99 ${formatValue(m('p99Ms')?.median ?? null, 'ms')}, ${formatValue(m('rps')?.median ?? null, 'req/s')}`,
      );
    }
  }
  for (const c of r.summary?.cells ?? [])
    for (const f of c.thresholds.failures)
      lines.push(
        `  THRESHOLD FAILED ${cellLabel(c)}: ${f.metric} ${f.expr} observed ${f.observed ?? 'nothing'} (run ${f.runId})`,
      );
  lines.push(...insightLines(r.experiment));
  lines.push(...hypothesisLines(r.experiment));
  for (const p of r.problems) lines.push(`  ! ${p}`);
  lines.push(`Result: ${r.outcome} (exit ${r.exitCode})`);
  return lines.join('\n');
}

/** "4 succeeded, 2 thresholds failed": a run that crossed a threshold is named as the failure it is. */
function runStatusCounts(runs: readonly { status: string }[]): string {
  const by = new Map<string, number>();
  for (const r of runs) by.set(r.status, (by.get(r.status) ?? 0) + 1);
  return [...by].map(([s, n]) => `${n} ${s.replace(/_/g, ' ')}`).join(', ') || 'none';
}

/**
 * "INSIGHT critical run #2 (fixed 8): k6 dropped …": the runs whose numbers are suspect, critical and
 * warning ones only (info is on the run page), one line each, with the fix.
 */
export function insightLines(e: Experiment): string[] {
  const names = new Map(e.poolConfigs.map((p) => [p.id, p.name]));
  const lines: string[] = [];
  for (const run of e.runs)
    for (const i of run.insights ?? [])
      if (i.severity !== 'info')
        lines.push(
          `  INSIGHT ${i.severity} run #${run.repeatIndex + 1} (${names.get(run.poolConfigId ?? '') ?? 'run'}): ${i.message}; fix: ${i.fix}`,
        );
  return lines;
}
