import {
  type CompareOptions,
  type ResolvedOptions,
  type Scale,
  resolveOptions,
} from './compare-options';
import { median } from './descriptive';
import { hodgesLehmann } from './hodges-lehmann';
import { mannWhitneyU, minPossiblePValue } from './mann-whitney';
import { describeVerdict } from './describe-verdict';
import type { SampleComparison } from './sample-comparison';
import { type Band, decideVerdict } from './verdict';
import { type StatsWarning, runsNeededFor } from './warnings';

export type { Estimate, SampleComparison } from './sample-comparison';

function checkFinite(values: readonly number[], side: string): void {
  values.forEach((v, i) => {
    if (!Number.isFinite(v))
      throw new RangeError(`${side}[${i}] is ${v}; every run must have a finite value`);
  });
}

function chooseScale(
  opts: ResolvedOptions,
  all: readonly number[],
  warnings: StatsWarning[],
): Scale {
  if (opts.scale === 'linear') return 'linear';
  if (all.every((v) => v > 0)) return 'log';
  warnings.push({
    code: 'linear-scale',
    message:
      'some values are 0 or negative, so the change is a difference in units on the linear scale, not a ratio',
  });
  return 'linear';
}

function noChangeBand(opts: ResolvedOptions, scale: Scale, baselineMedian: number): Band {
  if (scale === 'log') {
    const f = Math.log1p(opts.floorPercent / 100);
    return { lower: -f, upper: f };
  }
  const a = opts.absoluteFloor ?? (opts.floorPercent / 100) * Math.abs(baselineMedian);
  return { lower: -a, upper: a };
}

function toPercent(scale: Scale, d: number, baselineMedian: number): number {
  return scale === 'log' ? 100 * Math.expm1(d) : (100 * d) / Math.abs(baselineMedian);
}

/**
 * Compares one metric between two configurations, one value per run on each side.
 *
 * Mann–Whitney U for the p-value, Hodges–Lehmann shift with the Moses/Bauer interval for the size
 * of the change, both on log(values) when every value is positive, and the verdict rule of
 * `decideVerdict` with a practical floor. Never throws for small or degenerate samples: it says
 * so in `insufficient` and `warnings`. Throws RangeError on non-finite values or bad options.
 */
export function compareSamples(
  baseline: readonly number[],
  candidate: readonly number[],
  options?: CompareOptions,
): SampleComparison {
  const opts = resolveOptions(options);
  checkFinite(baseline, 'baseline');
  checkFinite(candidate, 'candidate');
  const warnings: StatsWarning[] = [];
  const baseMedian = baseline.length > 0 ? median(baseline) : null;
  const candMedian = candidate.length > 0 ? median(candidate) : null;
  const scale = chooseScale(opts, [...baseline, ...candidate], warnings);
  const result: SampleComparison = {
    baseline: { n: baseline.length, median: baseMedian },
    candidate: { n: candidate.length, median: candMedian },
    direction: opts.direction,
    scale,
    shift: null,
    changePercent: null,
    noChangeBand: null,
    floor: { percent: opts.floorPercent, absolute: opts.absoluteFloor },
    confidence: opts.confidence,
    achievedConfidence: null,
    alpha: opts.alpha,
    test: null,
    pValue: null,
    minPValue: null,
    verdict: 'inconclusive',
    rule: 'insufficient',
    reason: '',
    insufficient: true,
    warnings,
  };
  if (baseline.length < 2 || candidate.length < 2 || baseMedian === null) {
    warnings.push({
      code: 'too-few-runs',
      message: `${baseline.length} baseline and ${candidate.length} candidate runs: at least 2 per side are needed for any test, and ${runsNeededFor(opts.alpha)} for p < ${opts.alpha}`,
    });
    result.reason = describeVerdict(result);
    return result;
  }

  const t = scale === 'log' ? Math.log : (v: number) => v;
  const x = candidate.map(t);
  const y = baseline.map(t);
  const test = mannWhitneyU(x, y, opts.method);
  const hl = hodgesLehmann(x, y, opts.confidence, test.method);
  result.test = test;
  result.pValue = test.pValue;
  const minP = minPossiblePValue(baseline.length, candidate.length);
  result.minPValue = minP;
  result.shift = { estimate: hl.estimate, lower: hl.lower, upper: hl.upper };
  result.achievedConfidence = hl.achievedConfidence;
  result.noChangeBand = noChangeBand(opts, scale, baseMedian);
  if (scale === 'log' || baseMedian !== 0) {
    result.changePercent = {
      estimate: toPercent(scale, hl.estimate, baseMedian),
      lower: toPercent(scale, hl.lower, baseMedian),
      upper: toPercent(scale, hl.upper, baseMedian),
    };
  } else {
    warnings.push({
      code: 'baseline-median-zero',
      message: 'the baseline median is 0, so the change is reported in units only, not in percent',
    });
  }

  const allTied = [...x, ...y].every((v) => v === x[0]);
  if (allTied) {
    warnings.push({
      code: 'all-tied',
      message: 'every run has the same value on both sides; p is 1',
    });
  } else if (test.hasTies) {
    warnings.push({
      code: 'ties',
      message:
        'some runs have equal values, so the p-value and interval use the normal approximation',
    });
  }
  if (test.exactUnavailable) {
    warnings.push({
      code: 'exact-unavailable',
      message:
        'the exact test was asked for but ties (or too many runs) prevent it; the normal approximation was used',
    });
  }
  let insufficient = false;
  // Judged on the run counts, not this sample's ties: all-equal runs still give a fair no-change.
  if (!(minP < opts.alpha)) {
    insufficient = true;
    warnings.push({
      code: 'p-floor-above-alpha',
      message: `with ${baseline.length} baseline and ${candidate.length} candidate runs the smallest possible p-value is ${minP.toPrecision(3)}, so p < ${opts.alpha} cannot be reached: run at least ${runsNeededFor(opts.alpha)} repeats per side`,
    });
  }
  if (hl.widest && hl.achievedConfidence < opts.confidence) {
    insufficient = true;
    warnings.push({
      code: 'confidence-not-reachable',
      message: `a ${100 * opts.confidence} % interval needs more runs; the widest possible interval covers only ${(100 * hl.achievedConfidence).toFixed(1)} %`,
    });
  }
  result.insufficient = insufficient;
  applyVerdict(result, test.pValue);
  return result;
}

/** (Re)computes verdict, rule and reason from the comparison's interval and the given p-value. */
export function applyVerdict(result: SampleComparison, pValue: number | null): void {
  const { verdict, rule } = decideVerdict({
    shift: result.shift,
    band: result.noChangeBand,
    pValue,
    alpha: result.alpha,
    direction: result.direction,
    insufficient: result.insufficient,
  });
  result.pValue = pValue;
  result.verdict = verdict;
  result.rule = rule;
  result.reason = describeVerdict(result);
}
