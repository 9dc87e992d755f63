import { z } from 'zod';

export const HYPOTHESIS_STATUSES = ['pending', 'holds', 'does_not_hold', 'unresolved'] as const;
export type HypothesisStatusName = (typeof HYPOTHESIS_STATUSES)[number];

/**
 * A hypothesis's decision as every surface shows it (experiment page, REST, CLI, seeds page,
 * `make seeds`): one shape, so a field added here reaches all of them.
 */
export const HypothesisVerdictFields = {
  status: z
    .enum(HYPOTHESIS_STATUSES)
    .describe('pending until the experiment ends; then holds, does_not_hold or unresolved'),
  change: z
    .number()
    .nullable()
    .describe('Hodges-Lehmann change of the candidate against the base, in changeUnit'),
  low: z.number().nullable(),
  high: z.number().nullable(),
  changeUnit: z
    .string()
    .nullable()
    .describe("percent, or the metric's unit (percentage points for error rates)"),
  p: z.number().nullable().describe('Mann-Whitney p'),
  reason: z.string().nullable().describe('why, in one sentence'),
};
export const HypothesisVerdictSchema = z.object(HypothesisVerdictFields);
export type HypothesisVerdict = z.infer<typeof HypothesisVerdictSchema>;

/** A stored hypothesis's decision: its row holds the verdict's fields under the same names. */
export const storedVerdict = (h: HypothesisVerdict): HypothesisVerdict => ({
  status: h.status,
  change: h.change,
  low: h.low,
  high: h.high,
  changeUnit: h.changeUnit,
  p: h.p,
  reason: h.reason,
});

/** A stored hypothesis's window of elapsed seconds: both ends, or none (the whole run). */
export const storedWindow = (h: { windowFrom: number | null; windowTo: number | null }) =>
  h.windowFrom !== null && h.windowTo !== null ? { from: h.windowFrom, to: h.windowTo } : null;

const num = (x: number, digits: number) =>
  x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const signed = (x: number, d: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${num(Math.abs(x), d)}`;

/** "−15 % (−40 … +3 %)" or "−1.8 (−3.0 … −0.5)": a verdict's change with its interval. */
export function verdictChangeText(
  v: Pick<HypothesisVerdict, 'change' | 'low' | 'high' | 'changeUnit'>,
  none = 'n/a',
): string {
  if (v.change === null) return none;
  const pct = v.changeUnit === 'percent';
  const d = pct ? 0 : Math.abs(v.change) < 10 ? 2 : 1;
  const unit = pct ? ' %' : '';
  const interval =
    v.low !== null && v.high !== null ? ` (${signed(v.low, d)} … ${signed(v.high, d)}${unit})` : '';
  return `${signed(v.change, d)}${unit}${interval}`;
}

/** "0.042", "< 0.001", or `none` when no test was made. */
export const verdictPText = (p: number | null | undefined, none = 'n/a') =>
  p === null || p === undefined ? none : p < 0.001 ? '< 0.001' : num(p, 3);
