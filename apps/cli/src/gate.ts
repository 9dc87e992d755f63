import type { FailOn } from './args';
import { EXIT } from './exit-codes';
import type { Comparison, Experiment, ExperimentSummary, RunResult } from './types';

/**
 * The exit code and outcome of a finished experiment, given what --fail-on asks for and which
 * metrics --metrics gates on (null: all tested metrics). Exit 1 when --fail-on asks for it:
 * `regression` (a primary metric worse), `threshold` (a failed threshold), `any` (either, or an
 * incomplete cell: too few valid measured runs on a side, or too many crashed or invalid), `suspected` (any of
 * these or a suspected regression), `none` (never).
 */
export function decide(
  failOn: FailOn,
  e: Experiment,
  summary: ExperimentSummary | null,
  comparison: Comparison | null,
  gateMetrics: readonly string[] | null = null,
  window: { from: number; to: number } | null = null,
): Pick<RunResult, 'outcome' | 'exitCode' | 'problems'> {
  const problems: string[] = [];
  // a run whose thresholds failed measured what it should: the threshold outcome below decides on it
  const notOk = e.runs.filter((r) => r.status !== 'succeeded' && r.status !== 'thresholds_failed');
  if (notOk.length > 0) {
    for (const r of notOk.slice(0, 5))
      problems.push(`run ${r.id} ${r.status}${r.errorMessage ? `: ${r.errorMessage}` : ''}`);
    // nothing trustworthy was measured: that is an infrastructure problem, not a verdict
    return {
      outcome: 'error',
      exitCode: EXIT.infra,
      problems: [`${notOk.length} of ${e.runs.length} runs did not succeed`, ...problems],
    };
  }
  if (comparison && gateMetrics) {
    // a server that ignored ?metrics= adjusted over every metric: that verdict answers another question
    const got = comparison.gatedOn ?? [];
    if (got.length !== gateMetrics.length || !gateMetrics.every((k) => got.includes(k))) {
      return {
        outcome: 'error',
        exitCode: EXIT.infra,
        problems: [
          `asked to gate on ${gateMetrics.join(', ')} but the server gated on ${got.length ? got.join(', ') : 'every metric (it does not know --metrics)'}; update PoolBench or drop --metrics`,
        ],
      };
    }
  }
  if (
    comparison &&
    window &&
    (comparison.window?.from !== window.from || comparison.window?.to !== window.to)
  ) {
    // a server that ignored from/to compared whole runs, warm-up included
    const got = comparison.window
      ? `seconds ${comparison.window.from}-${comparison.window.to}`
      : 'whole runs (it does not know --window)';
    return {
      outcome: 'error',
      exitCode: EXIT.infra,
      problems: [
        `asked to compare seconds ${window.from}-${window.to} of every run but the server compared ${got}; update PoolBench or drop --window`,
      ],
    };
  }
  if (comparison?.outcome === 'no-baseline') {
    problems.push(
      `no baseline "${comparison.baseline}" for ${comparison.cells
        .filter((c) => !c.baseline)
        .map((c) => c.scenario?.name ?? '?')
        .join(
          ', ',
        )}; nothing to compare with (save one with run --save-baseline ${comparison.baseline} on main, or poolbench baseline set ${comparison.baseline} --experiment <id>)`,
    );
  }
  // a primary metric worse than its baseline (a secondary one is a suspicion, as the server's
  // outcome says); failed thresholds are the threshold half of the outcome
  // or a candidate that could not take the load its baseline took (the server's `loadNotTaken`)
  const regression =
    comparison?.cells.some(
      (c) =>
        !!c.loadNotTaken || c.metrics.some((m) => m.verdict === 'worse' && m.primary !== false),
    ) ?? false;
  const threshold = summary?.thresholdsFailed ?? false;
  const where = (c: NonNullable<Comparison>['cells'][number]) =>
    `${c.poolConfig?.name ?? '?'} × ${c.scenario?.name ?? '?'}`;
  for (const c of comparison?.cells ?? [])
    if (c.loadNotTaken) problems.push(`regression: ${where(c)}: ${c.loadNotTaken}`);
  // estimates worse beyond the floor without enough evidence: never reported as a pass
  const suspected = comparison?.outcome === 'suspected-regression';
  if (suspected && !regression)
    for (const c of comparison.cells) {
      for (const m of c.metrics.filter((x) => x.verdict === 'worse' && x.primary === false))
        problems.push(
          `suspected regression: secondary metric ${m.label} of ${where(c)} is worse${m.changePercent ? ` ${m.changePercent.estimate.toFixed(0)} % [${m.changePercent.lower.toFixed(0)} %, ${m.changePercent.upper.toFixed(0)} %]` : ''}; secondary metrics are adjusted apart from the primary ones and do not make a regression`,
        );
      for (const m of c.metrics.filter((x) => x.suspected))
        problems.push(
          `suspected regression: ${m.label} of ${where(c)}${m.changePercent ? ` ${m.changePercent.estimate.toFixed(0)} % [${m.changePercent.lower.toFixed(0)} %, ${m.changePercent.upper.toFixed(0)} %]` : ''} on ${c.candidateRuns} vs ${c.baseline?.runs ?? 0} runs; add repeats to settle it`,
        );
    }
  // runs whose numbers do not describe the load asked for: left out by the server, said here
  for (const c of comparison?.cells ?? [])
    for (const r of c.invalidRuns ?? [])
      problems.push(
        `invalid: ${r.side} run ${r.runId} of ${where(c)} left out of the verdicts: ${r.reasons.map((x) => x.message).join(', ')}`,
      );
  // too few valid runs on a side, or too many crashed or invalid: no verdict can be trusted
  const incomplete = comparison?.outcome === 'incomplete';
  if (incomplete)
    for (const c of comparison.cells)
      if (c.incomplete || c.candidateRuns < 2)
        problems.push(
          `incomplete: ${where(c)}: ${c.incomplete ?? `${c.candidateRuns} measured runs; the test needs at least 2 per side`}`,
        );
  const outcome =
    regression && threshold
      ? 'regression+threshold'
      : regression
        ? 'regression'
        : threshold
          ? 'threshold'
          : suspected
            ? 'suspected-regression'
            : incomplete
              ? 'incomplete'
              : 'pass';
  const fails =
    (failOn === 'suspected' && (regression || threshold || incomplete || suspected)) ||
    (failOn === 'any' && (regression || threshold || incomplete)) ||
    (failOn === 'regression' && regression) ||
    (failOn === 'threshold' && threshold);
  return { outcome, exitCode: fails ? EXIT.failed : EXIT.pass, problems };
}
