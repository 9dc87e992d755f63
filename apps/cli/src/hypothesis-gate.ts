import type { FailOnHypothesis } from './args';
import { EXIT } from './exit-codes';
import type { Experiment, RunResult } from './types';

const STATUS_WORDS: Record<string, string> = {
  holds: 'holds',
  does_not_hold: 'does not hold',
  unresolved: 'unresolved',
  pending: 'pending',
};

/**
 * --fail-on-hypothesis: the experiment's pre-registered hypotheses as decided by the server. One
 * that does not hold (or, with =unresolved, one that stays unresolved or undecided) fails the build
 * with exit 1, named with its reason; a result that already failed keeps its outcome and code.
 */
export function applyHypothesisGate(
  result: Pick<RunResult, 'outcome' | 'exitCode' | 'problems'>,
  experiment: Experiment,
  mode: FailOnHypothesis | null,
): Pick<RunResult, 'outcome' | 'exitCode' | 'problems'> {
  if (mode === null) return result;
  const hs = experiment.hypotheses;
  if (hs === undefined)
    return {
      ...result,
      problems: [
        ...result.problems,
        'this PoolBench server reports no hypotheses (older than --fail-on-hypothesis); nothing was checked',
      ],
    };
  const failing = hs.filter(
    (h) =>
      h.status === 'does_not_hold' ||
      (mode === 'unresolved' && (h.status === 'unresolved' || h.status === 'pending')),
  );
  if (failing.length === 0) return result;
  const problems = failing.map(
    (h) =>
      `hypothesis ${h.position + 1} ${STATUS_WORDS[h.status] ?? h.status}: ${h.statement}${h.reason ? ` (${h.reason})` : ''}`,
  );
  const passed = result.exitCode === EXIT.pass;
  return {
    outcome: passed ? 'hypothesis' : result.outcome,
    exitCode: passed ? EXIT.failed : result.exitCode,
    problems: [...result.problems, ...problems],
  };
}

/** One line per hypothesis for the text report. */
export function hypothesisLines(experiment: Experiment): string[] {
  const hs = experiment.hypotheses ?? [];
  if (hs.length === 0) return [];
  const unit = (u: string | null) => (u === 'percent' ? ' %' : u ? ` ${u}` : '');
  const num = (v: number) => `${v > 0 ? '+' : ''}${Math.abs(v) < 10 ? v.toFixed(1) : v.toFixed(0)}`;
  return [
    'Hypotheses (pre-registered):',
    ...hs.map((h) => {
      const change =
        h.change !== null
          ? `, change ${num(h.change)}${unit(h.changeUnit)}${h.low !== null && h.high !== null ? ` [${num(h.low)}, ${num(h.high)}]` : ''}${h.p !== null ? `, p ${h.p.toFixed(3)}` : ''}`
          : '';
      const more =
        h.status === 'unresolved' && h.repeatsNeeded !== null
          ? `; about ${h.repeatsNeeded} repeats per side would likely resolve it`
          : '';
      return `  ${(STATUS_WORDS[h.status] ?? h.status).toUpperCase().padEnd(13)} ${h.statement}${change}${more}`;
    }),
  ];
}
