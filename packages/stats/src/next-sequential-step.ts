import type { CompareOptions } from './compare-options';
import {
  type SequentialMetricDecision,
  decideSequential,
  isSequentialDecided,
} from './decide-sequential';
import {
  type SequentialDesign,
  type SequentialMetricSamples,
  resolveSequentialDesign,
} from './sequential-design';

export interface SequentialStep {
  /** True when no more pairs should be run: every metric is decided, or the budget is used up. */
  stop: boolean;
  /** Pairs to enqueue before asking again (0 when stopping; 1 when looking after every pair). */
  nextPairs: number;
  /** Complete pairs so far (the fewest over the metrics). */
  pairs: number;
  perMetric: SequentialMetricDecision[];
}

/**
 * What an experiment launched "until decided, at most N repeats per side" does after a pair has
 * finished: stop, or run `nextPairs` more pairs (baseline and candidate, in the experiment's run
 * order) and ask again.
 * It stops once every metric has a decision (better, worse or no difference within the floor) or
 * the N-th pair has been looked at. Stateless: pass all values so far each time.
 */
export function nextSequentialStep(
  metrics: readonly SequentialMetricSamples[],
  design: SequentialDesign,
  shared: CompareOptions = {},
): SequentialStep {
  const d = resolveSequentialDesign(design);
  if (metrics.length === 0)
    throw new RangeError('metrics: choose at least one metric to decide on');
  const perMetric = decideSequential(metrics, design, shared);
  const pairs = perMetric.length ? Math.min(...perMetric.map((m) => m.pairsSoFar)) : 0;
  const stop = pairs >= d.maxPairs || perMetric.every((m) => isSequentialDecided(m.decision));
  const nextLook = d.looks.find((k) => k > pairs) ?? d.maxPairs;
  return { stop, nextPairs: stop ? 0 : nextLook - pairs, pairs, perMetric };
}
