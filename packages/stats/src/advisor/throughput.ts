import { median } from '../descriptive';
import { hodgesLehmann } from '../hodges-lehmann';
import type { SettingVerdict } from './slo';

/**
 * The max-throughput rule. A setting "meets" when its throughput is shown to be within
 * `tolerance` of the best setting's: the Hodges–Lehmann 90 % interval (exact Moses/Bauer
 * interval) of log(rps) at this setting minus log(rps) at the best lies above log(1 − tolerance).
 * It "fails" when the whole interval lies below that. With 3 runs against 3 the 90 % interval
 * is the widest one, [min difference, max difference], so 3 runs on both sides is the fewest that
 * can decide, as for the SLO rule: "meets" then says that every run here reached 95 % of every
 * run at the best. The best is the setting with the highest median rps among those with at least
 * `minRuns` runs; it meets by definition.
 */
export const THROUGHPUT_RULE = { tolerance: 0.05, confidence: 0.9, minRuns: 3 } as const;

export interface ThroughputVerdict {
  setting: number;
  verdict: SettingVerdict;
  /** Median rps of the usable runs; null without any. */
  medianRps: number | null;
  usableRuns: number;
  /** Ratio of this setting's throughput to the best's: HL estimate and 90 % interval. */
  ratioToBest: { estimate: number; lower: number; upper: number } | null;
  /**
   * Fewest further runs, each at the best's median rps, that would make it "meets" (0 when it
   * does); null when 30 such runs would not.
   */
  runsToSettle: number | null;
}

const FLOOR = Math.log(1 - THROUGHPUT_RULE.tolerance);

function compare(x: readonly number[], best: readonly number[]) {
  const hl = hodgesLehmann(
    x.map(Math.log),
    best.map(Math.log),
    THROUGHPUT_RULE.confidence,
    'exact',
  );
  return { hl, decisive: hl.achievedConfidence >= THROUGHPUT_RULE.confidence - 1e-12 };
}

function verdictAgainst(x: readonly number[], best: readonly number[]): SettingVerdict {
  if (x.length < THROUGHPUT_RULE.minRuns) return 'in-doubt';
  const { hl, decisive } = compare(x, best);
  if (!decisive) return 'in-doubt';
  if (hl.lower >= FLOOR) return 'meets';
  if (hl.upper < FLOOR) return 'fails';
  return 'in-doubt';
}

/** The setting with the highest median among those with enough runs (the smaller one on ties). */
export function bestThroughputSetting(
  samples: ReadonlyMap<number, readonly number[]>,
): number | null {
  let best: number | null = null;
  let bestMedian = Number.NEGATIVE_INFINITY;
  for (const [setting, values] of [...samples].sort((a, b) => a[0] - b[0])) {
    if (values.length < THROUGHPUT_RULE.minRuns) continue;
    const m = median(values);
    if (m > bestMedian) {
      best = setting;
      bestMedian = m;
    }
  }
  return best;
}

/**
 * Verdicts for every setting in `samples` (setting → usable rps values, each > 0) under
 * THROUGHPUT_RULE. Without a best (no setting has `minRuns` runs) every setting is in doubt.
 */
export function throughputVerdicts(
  samples: ReadonlyMap<number, readonly number[]>,
): ThroughputVerdict[] {
  const best = bestThroughputSetting(samples);
  const bestValues = best === null ? [] : (samples.get(best) ?? []);
  const bestMedian = bestValues.length > 0 ? median(bestValues) : null;
  return [...samples.keys()]
    .sort((a, b) => a - b)
    .map((setting) => {
      const values = samples.get(setting) ?? [];
      const medianRps = values.length > 0 ? median(values) : null;
      if (best === null || bestMedian === null)
        return {
          setting,
          verdict: 'in-doubt',
          medianRps,
          usableRuns: values.length,
          ratioToBest: null,
          runsToSettle: null,
        };
      if (setting === best)
        return {
          setting,
          verdict: 'meets',
          medianRps,
          usableRuns: values.length,
          ratioToBest: { estimate: 1, lower: 1, upper: 1 },
          runsToSettle: 0,
        };
      const verdict = verdictAgainst(values, bestValues);
      let ratioToBest: ThroughputVerdict['ratioToBest'] = null;
      if (values.length > 0) {
        const { hl } = compare(values, bestValues);
        ratioToBest = {
          estimate: Math.exp(hl.estimate),
          lower: Math.exp(hl.lower),
          upper: Math.exp(hl.upper),
        };
      }
      let runsToSettle: number | null = null;
      for (let k = 0; k <= 30 && runsToSettle === null; k++) {
        const more = [...values, ...new Array<number>(k).fill(bestMedian)];
        if (verdictAgainst(more, bestValues) === 'meets') runsToSettle = k;
      }
      return { setting, verdict, medianRps, usableRuns: values.length, ratioToBest, runsToSettle };
    });
}
