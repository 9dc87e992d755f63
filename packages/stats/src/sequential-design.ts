import type { CompareOptions } from './compare-options';

/** How an experiment that runs "until decided" is planned. */
export interface SequentialDesign {
  /** Most repeats per side, N: the experiment never runs more than N pairs. */
  maxPairs: number;
  /**
   * When the data are looked at: `every-pair` (default) after each finished pair, or the pair
   * counts of the planned looks, increasing, the last one equal to `maxPairs`.
   */
  looks?: 'every-pair' | readonly number[];
  /**
   * Chance (default 0.05) that any metric is called better or worse, at any look, when no metric
   * differs by more than its floor. Split equally over the metrics (Bonferroni) and, within a
   * metric, over the two directions. Replaces the metrics' own `alpha`.
   */
  alpha?: number;
}

export interface ResolvedSequentialDesign {
  maxPairs: number;
  /** Pair counts of the planned looks, increasing, ending at maxPairs. */
  looks: number[];
  alpha: number;
}

/** One metric of a sequential comparison: its per-run values in run order, paired by position. */
export interface SequentialMetricSamples {
  /** Metric key, e.g. `p99Ms`. */
  name: string;
  /**
   * One entry per finished baseline run, in the order the runs were made; null where the run has
   * no value for this metric (it is left out, the pair still counts as looked at).
   */
  baseline: readonly (number | null)[];
  /** One entry per finished candidate run; entry i was run right after baseline entry i. */
  candidate: readonly (number | null)[];
  /** Direction, scale and practical floor, as for `compareSamples`; `alpha` is the design's. */
  options?: CompareOptions;
  /**
   * The change a directional claim expects (the candidate higher, or lower, by more than the
   * floor). With it the rule also tests the claim's refutation, "not beyond the floor that way",
   * and decides `short-of-claim` when that is shown.
   */
  claim?: 'increase' | 'decrease';
}

/** Checks a design and fills in its defaults; throws a RangeError naming the bad field. */
export function resolveSequentialDesign(design: SequentialDesign): ResolvedSequentialDesign {
  const { maxPairs } = design;
  if (!(Number.isInteger(maxPairs) && maxPairs >= 1 && maxPairs <= 1000))
    throw new RangeError(`maxPairs must be a whole number from 1 to 1000, got ${maxPairs}`);
  const alpha = design.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const planned = design.looks ?? 'every-pair';
  const looks =
    planned === 'every-pair' ? Array.from({ length: maxPairs }, (_, i) => i + 1) : [...planned];
  looks.forEach((k, i) => {
    if (!Number.isInteger(k) || k < 1 || (i > 0 && k <= (looks[i - 1] as number)))
      throw new RangeError(`looks[${i}] is ${k}; looks must be increasing whole numbers of pairs`);
  });
  if (looks.at(-1) !== maxPairs)
    throw new RangeError(
      `looks must end at maxPairs (${maxPairs}) so the last look spends what is left of alpha, got ${looks.join(', ')}`,
    );
  return { maxPairs, looks, alpha };
}
