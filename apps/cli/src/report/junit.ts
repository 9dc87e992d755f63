import {
  againstLabel,
  cellLabel,
  FLOOR_NOTE,
  formatChange,
  formatValue,
  gatedOnLabel,
  windowLabel,
} from '../format';
import type { RunResult } from '../types';
import { scriptComparisonLine, scriptMetricLine } from './text';

const esc = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

interface Case {
  classname: string;
  name: string;
  failure?: { message: string; body: string };
  skipped?: string;
}

/**
 * The script's own k6 metrics per cell, as the text report lists them: descriptive (no verdict),
 * so they are the suite's output, not test cases that could pass or fail.
 */
function scriptMetricOutput(r: RunResult): string[] {
  const out: string[] = [];
  if (r.comparison)
    for (const c of r.comparison.cells)
      if (c.scriptMetrics?.length)
        out.push(`${cellLabel(c)}:`, ...c.scriptMetrics.map(scriptComparisonLine));
  if (!r.comparison && r.summary)
    for (const c of r.summary.cells)
      if (c.scriptMetrics?.length)
        out.push(`${cellLabel(c)}:`, ...c.scriptMetrics.map(scriptMetricLine));
  return out;
}

/**
 * One test case per compared metric and per threshold, grouped by pool config x scenario, so CI
 * test views list exactly which metric regressed. Inconclusive verdicts are skipped, not failed.
 * The script's own metrics go to the suite's `system-out`.
 */
export function toJUnit(r: RunResult): string {
  const cases: Case[] = [];
  for (const cell of r.comparison?.cells ?? []) {
    const classname = `poolbench.${cellLabel(cell)}`;
    if (!cell.baseline) {
      cases.push({
        classname,
        name: `baseline ${r.comparison!.baseline}`,
        skipped: 'no baseline of this name for the target and scenario',
      });
      continue;
    }
    for (const m of cell.metrics) {
      const name = `${m.label} vs ${r.comparison!.baseline}`;
      const detail = `${m.label}: ${formatValue(m.baselineMedian, m.unit)} -> ${formatValue(m.candidateMedian, m.unit)} (against ${againstLabel(r.comparison!)}), change ${formatChange(m.changePercent, m.achievedConfidence ?? m.confidence)}; ${m.reason}; gated on: ${gatedOnLabel(r.comparison!)}; over ${windowLabel(r.comparison!)}`;
      if (m.verdict === 'worse')
        cases.push({
          classname,
          name,
          failure: {
            message: `${m.label} regressed: ${formatChange(m.changePercent, m.achievedConfidence ?? m.confidence)}`,
            body: detail,
          },
        });
      else if (m.verdict === 'inconclusive') cases.push({ classname, name, skipped: detail });
      else cases.push({ classname, name });
    }
  }
  for (const cell of r.summary?.cells ?? []) {
    const classname = `poolbench.${cellLabel(cell)}`;
    const byExpr = new Map<string, string[]>();
    for (const f of cell.thresholds.failures)
      byExpr.set(`${f.metric} ${f.expr}`, [
        ...(byExpr.get(`${f.metric} ${f.expr}`) ?? []),
        `run ${f.runId}: observed ${f.observed ?? 'nothing'}`,
      ]);
    for (const [expr, runs] of byExpr)
      cases.push({
        classname,
        name: `threshold ${expr}`,
        failure: {
          message: `threshold ${expr} failed in ${runs.length} run(s)`,
          body: runs.join('\n'),
        },
      });
    if (cell.thresholds.passed > 0 && byExpr.size === 0)
      cases.push({ classname, name: 'thresholds' });
  }
  // warnings (e.g. no baseline yet) are visible as skipped cases; only an infrastructure error fails here
  if (r.exitCode === 3)
    cases.push({
      classname: 'poolbench',
      name: 'runs',
      failure: { message: r.problems[0] ?? 'error', body: r.problems.join('\n') },
    });
  // a check that failed the build without a worse metric or a failed threshold (--fail-on any on an
  // incomplete check, --fail-on suspected on a suspicion) fails a case too, with its reasons
  if (r.exitCode === 1 && (r.outcome === 'incomplete' || r.outcome === 'suspected-regression'))
    cases.push({
      classname: 'poolbench',
      name: r.outcome,
      failure: { message: r.problems[0] ?? r.outcome, body: r.problems.join('\n') },
    });
  if (cases.length === 0) cases.push({ classname: 'poolbench', name: 'runs succeeded' });

  const failures = cases.filter((c) => c.failure).length;
  const skipped = cases.filter((c) => c.skipped).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="poolbench" tests="${cases.length}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="${esc(r.experiment.name)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}" errors="0">`,
    `    <properties><property name="experiment" value="${esc(r.experiment.webUrl)}"/>${r.shareUrl ? `<property name="share" value="${esc(r.shareUrl)}"/>` : ''}${r.comparison ? `<property name="gatedOn" value="${esc(gatedOnLabel(r.comparison))}"/><property name="window" value="${esc(windowLabel(r.comparison))}"/><property name="against" value="${esc(againstLabel(r.comparison))}"/><property name="floor" value="${esc(FLOOR_NOTE)}"/>` : ''}</properties>`,
  ];
  for (const c of cases) {
    const open = `    <testcase classname="${esc(c.classname)}" name="${esc(c.name)}"`;
    if (c.failure)
      lines.push(
        `${open}>`,
        `      <failure message="${esc(c.failure.message)}">${esc(c.failure.body)}</failure>`,
        '    </testcase>',
      );
    else if (c.skipped)
      lines.push(`${open}>`, `      <skipped message="${esc(c.skipped)}"/>`, '    </testcase>');
    else lines.push(`${open}/>`);
  }
  const output = scriptMetricOutput(r);
  if (output.length) lines.push(`    <system-out>${esc(output.join('\n'))}</system-out>`);
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
