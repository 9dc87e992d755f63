import {
  againstLabel,
  cellLabel,
  formatChange,
  formatPercent,
  formatValue,
  gatedOnLabel,
  windowLabel,
} from '../format';
import { aboveTopText } from '@poolbench/contracts';
import type { ScriptMetricComparison, ScriptMetricSummary } from '@poolbench/contracts';
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
      lines.push(...(c.scriptMetrics ?? []).map(scriptComparisonLine));
    }
  } else if (r.summary) {
    for (const c of r.summary.cells) {
      const m = (k: string) => c.metrics.find((x) => x.key === k);
      // a script's check() results, when its runs had any (median of the runs' pass rates)
      const checks = m('checkPassRate')?.median ?? null;
      lines.push(
        `  ${cellLabel(c)}: ${c.succeeded}/${c.runs} runs, p99 ${formatValue(m('p99Ms')?.median ?? null, 'ms')}, ${formatValue(m('rps')?.median ?? null, 'req/s')}${checks === null ? '' : `, checks passed ${formatValue(checks, '%')}`}`,
      );
      // beside the checks, the script's own k6 metrics (medians of the runs)
      lines.push(...(c.scriptMetrics ?? []).map(scriptMetricLine));
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

/** A value of a script's metric in its unit: "12.5 ms", a plain number without any ("80", "3.50"). */
export const scriptValue = (v: number | null, unit: string) =>
  v === null
    ? '–'
    : unit !== ''
      ? formatValue(v, unit)
      : Number.isInteger(v)
        ? String(v)
        : formatValue(v, '').trimEnd();

/**
 * One of the script's own metrics over a cell's runs: its type and samples, then a trend's p95
 * and mean (ms only for a trend of times), a counter's sum, a rate's share, a gauge's last and
 * highest value, e.g. "    SCRIPT       login_ms (trend): 100 samples, p95 31.5 ms, avg 21.0 ms".
 */
export function scriptMetricLine(m: ScriptMetricSummary): string {
  return `    ${'SCRIPT'.padEnd(12)} ${m.name} (${m.type}): ${scriptValue(m.count, '')} samples, ${scriptMetricValue(m)}`;
}

/** What a script metric's line says after its samples: "p95 31.5 ms, avg 21.0 ms (median of 2 runs)". */
export function scriptMetricValue(m: ScriptMetricSummary): string {
  const value =
    m.type === 'trend'
      ? `p95 ${scriptValue(m.p95, m.unit)}, avg ${scriptValue(m.mean, m.unit)}${m.negative > 0 ? `, ${m.negative} ${m.negative === 1 ? 'sample' : 'samples'} below 0 left out` : ''}${m.aboveTop ? `, ${aboveTopText(m.aboveTop, m.unit === 'ms')}` : ''}`
      : m.type === 'counter'
        ? `sum ${scriptValue(m.sum, '')}`
        : m.type === 'rate'
          ? `rate ${m.rate === null ? '–' : formatValue(m.rate * 100, '%')}`
          : `last ${scriptValue(m.last, '')}, max ${scriptValue(m.max, '')}`;
  return `${value}${m.runs > 1 ? ` (median of ${m.runs} runs)` : ''}`;
}

/** A script metric's statistic, baseline -> candidate and the difference (descriptive). */
export function scriptComparisonLine(m: ScriptMetricComparison): string {
  const c = scriptComparisonParts(m);
  return `    ${'SCRIPT'.padEnd(12)} ${m.name} ${m.stat} (${m.type}): ${c.baseline} -> ${c.candidate}${c.difference ? `, ${c.difference}` : ''}`;
}

/** A script metric comparison's values in their unit and its difference ('' when there is none). */
export function scriptComparisonParts(m: ScriptMetricComparison): {
  baseline: string;
  candidate: string;
  difference: string;
} {
  const unit = m.unit;
  const d = m.difference;
  const difference = !d
    ? ''
    : `${d.absolute > 0 ? '+' : d.absolute < 0 ? '-' : '±'}${m.unit === '%' ? `${scriptValue(Math.abs(d.absolute), '')} pp` : scriptValue(Math.abs(d.absolute), unit)}${d.percent === null || m.unit === '%' ? '' : ` (${formatPercent(d.percent)})`}`;
  return {
    baseline: scriptValue(m.baselineMedian, unit),
    candidate: scriptValue(m.candidateMedian, unit),
    difference,
  };
}

/** "4 succeeded, 2 thresholds failed": a run that crossed a threshold is named as the failure it is. */
function runStatusCounts(runs: readonly { status: string }[]): string {
  const by = new Map<string, number>();
  for (const r of runs) by.set(r.status, (by.get(r.status) ?? 0) + 1);
  return [...by].map(([s, n]) => `${n} ${s.replace(/_/g, ' ')}`).join(', ') || 'none';
}

/** At most this many insight lines: the outcome that follows must stay in sight. */
export const MAX_INSIGHT_LINES = 4;

/**
 * The runs whose numbers are suspect, critical and warning ones only (info is on the run page):
 * one line per kind of insight, however many runs it concerns, critical first, naming the runs
 * by config and repeat, with the first run's message and the fix. A single run reads
 * "INSIGHT critical run #2 (fixed 8): k6 dropped …; fix: …"; several read
 * "INSIGHT critical in 3 runs (fixed 8 #1 #2, fixed 1 #1): k6 dropped … (run #1 of fixed 8); fix: …".
 * Past MAX_INSIGHT_LINES kinds, one line counts the rest and points at the experiment's page.
 */
export function insightLines(e: Experiment): string[] {
  const names = new Map(e.poolConfigs.map((p) => [p.id, p.name]));
  const scenarios = new Map(e.scenarios.map((sc) => [sc.id, sc.name]));
  // "fixed 8 × burst" only when the experiment has several scenarios
  const cellOf = (run: Experiment['runs'][number]) => {
    const config = names.get(run.poolConfigId ?? '') ?? 'run';
    return e.scenarios.length > 1
      ? `${config} × ${scenarios.get(run.scenarioId ?? '') ?? 'scenario'}`
      : config;
  };
  const kinds = new Map<
    string,
    {
      severity: string;
      message: string;
      fix: string;
      runs: { config: string; repeat: number }[];
    }
  >();
  for (const run of e.runs)
    for (const i of run.insights ?? []) {
      if (i.severity === 'info') continue;
      const key = `${i.severity}\0${i.code}`;
      const kind = kinds.get(key) ?? {
        severity: i.severity,
        message: i.message,
        fix: i.fix,
        runs: [],
      };
      kind.runs.push({
        config: cellOf(run),
        repeat: run.repeatIndex + 1,
      });
      kinds.set(key, kind);
    }
  const ordered = [...kinds.values()].sort(
    (a, b) => Number(b.severity === 'critical') - Number(a.severity === 'critical'),
  );
  const lines = ordered.slice(0, MAX_INSIGHT_LINES).map((k) => {
    const first = k.runs[0]!;
    if (k.runs.length === 1)
      return `  INSIGHT ${k.severity} run #${first.repeat} (${first.config}): ${k.message}; fix: ${k.fix}`;
    const byConfig = new Map<string, number[]>();
    for (const r of k.runs) byConfig.set(r.config, [...(byConfig.get(r.config) ?? []), r.repeat]);
    const which = [...byConfig]
      .map(([config, repeats]) => `${config} ${repeats.map((n) => `#${n}`).join(' ')}`)
      .join(', ');
    return `  INSIGHT ${k.severity} in ${k.runs.length} runs (${which}): ${k.message} (run #${first.repeat} of ${first.config}); fix: ${k.fix}`;
  });
  const rest = ordered.length - MAX_INSIGHT_LINES;
  if (rest > 0)
    lines.push(`  INSIGHT ${rest} more ${rest === 1 ? 'kind' : 'kinds'} of insight: ${e.webUrl}`);
  return lines;
}
