import { HYPOTHESIS_METRICS } from './hypothesis-metrics';
import type { Hypothesis, PresetHypothesis } from './hypothesis-schema';

export type HypothesisBandUnit = 'percent' | 'absolute';

/** The unit a band is in when the hypothesis does not say: error rates in points, else percent. */
export function bandUnitOf(h: Pick<Hypothesis, 'metric' | 'bandUnit'>): HypothesisBandUnit {
  return h.bandUnit ?? (h.metric === 'errorRate' ? 'absolute' : 'percent');
}

function num(x: number): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: 3 });
}

/** "5 %", "1 percentage point", "20 ms". */
export function bandText(h: Pick<Hypothesis, 'metric' | 'band' | 'bandUnit'>): string {
  if (bandUnitOf(h) === 'percent') return `${num(h.band)} %`;
  if (h.metric === 'errorRate') return `${num(h.band)} percentage point${h.band === 1 ? '' : 's'}`;
  return `${num(h.band)} ${HYPOTHESIS_METRICS[h.metric].unit}`;
}

export interface CellNames {
  poolConfig: string;
  scenario: string;
}

const cellText = (c: CellNames, sameScenario: boolean) =>
  sameScenario ? c.poolConfig : `${c.poolConfig} under ${c.scenario}`;

/**
 * One line a person reads before the run: "shared has a higher throughput than per-request by at
 * least 5 % (scenario: burst, seconds 0–10)".
 */
export function hypothesisStatement(
  h: Pick<Hypothesis, 'metric' | 'expect' | 'band' | 'bandUnit' | 'window'>,
  base: CellNames,
  candidate: CellNames,
): string {
  const m = HYPOTHESIS_METRICS[h.metric];
  const same = base.scenario === candidate.scenario;
  const b = cellText(base, same);
  const c = cellText(candidate, same);
  const where = [
    same ? `scenario ${base.scenario}` : null,
    h.window ? `seconds ${h.window.from}–${h.window.to}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  const tail = where ? ` (${where})` : '';
  if (h.expect === 'equivalent')
    return `${c} and ${b} have the same ${m.noun} within ±${bandText(h)}${tail}`;
  // better/worse follow the metric's direction: better throughput is higher, better latency lower.
  const higher = (h.expect === 'better') === m.higherIsBetter;
  return `${c} has a ${higher ? 'higher' : 'lower'} ${m.noun} than ${b} by at least ${bandText(h)}${tail}`;
}

/** The statement of a preset's hypothesis, named by the preset's own pool config names and scenario labels. */
export function presetHypothesisStatement(
  h: PresetHypothesis,
  scenarioLabel: (id: string) => string = (id) => id,
): string {
  return hypothesisStatement(
    h,
    { poolConfig: h.base.poolConfig, scenario: scenarioLabel(h.base.scenario) },
    { poolConfig: h.candidate.poolConfig, scenario: scenarioLabel(h.candidate.scenario) },
  );
}
