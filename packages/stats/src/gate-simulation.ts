import {
  cellState,
  gateOutcome,
  incompleteReason,
  isSuspectedWorse,
  type GateOutcome,
} from './gate-outcome';
import { measureNoiseFloor } from './noise-floor';
import type { NoiseFloors } from './noise-floor-options';
import { compareRunGroups } from './run-metrics';
import type { RunSummary } from './run-summary';
import { normalDraw, seededRandom } from './seeded-random';
import { summary } from './testing/summary-fixture';

/*
 * Simulated checks through the gate's own functions (`measureNoiseFloor`, `compareRunGroups`,
 * `cellState`, `incompleteReason`, `gateOutcome`): the unit test runs a few hundred, and
 * scripts/simulate-gate.ts the table in docs/outcomes.md. Not exported from the package.
 */

export interface GateSimulation {
  /** runs per side */
  runs: number;
  /** run-to-run coefficient of variation of every metric (log-normal) */
  cv: number;
  /** the candidate's p95 is this many times the baseline's (1: A/A) */
  p95Factor: number;
  /** the candidate's p99 is this many times the baseline's (default 1) */
  p99Factor?: number;
  /** runs of the candidate (default `runs`) */
  candidateRuns?: number;
  /** of the candidate's runs, this many crashed: counted, never measured (default 0) */
  crashedRuns?: number;
  /**
   * an A/A calibration of this many runs per side at the same noise, measured before each check
   * (`measureNoiseFloor`) and given to the comparison as its noise floors
   */
  calibrationRunsPerSide?: number;
  checks: number;
  seed: number;
}

/**
 * One run's summary: every metric of the fixture times its own independent log-normal run-level
 * factor of coefficient of variation `cv` (error rate 1 % and CPU, memory, pool wait alike).
 */
function noisyRun(
  random: () => number,
  cv: number,
  p95Factor: number,
  p99Factor: number,
): RunSummary {
  const sigma = Math.sqrt(Math.log(1 + cv * cv));
  const f = () => Math.exp(sigma * normalDraw(random) - (sigma * sigma) / 2);
  const s = summary(100 * f(), 10, 0.01 * f());
  const latency = {
    ...s.latency!,
    p50: s.latency!.p50 * f(),
    p95: s.latency!.p95 * f() * p95Factor,
    p99: s.latency!.p99 * f() * p99Factor,
  };
  const r = s.resources!;
  return {
    ...s,
    latency,
    blocked: { ...s.blocked!, p95: s.blocked!.p95 * f() },
    resources: {
      ...r,
      cpuMeanPercent: r.cpuMeanPercent! * f(),
      cpuPeakPercent: r.cpuPeakPercent! * f(),
      rssMeanBytes: r.rssMeanBytes! * f(),
      rssPeakBytes: r.rssPeakBytes! * f(),
      poolWaitMsMean: r.poolWaitMsMean! * f(),
    },
  };
}

/** How often each outcome came out of `checks` simulated checks of one cell. */
export function simulateGate(sim: GateSimulation): Record<GateOutcome, number> {
  const random = seededRandom(sim.seed);
  const counts: Record<GateOutcome, number> = {
    regression: 0,
    'suspected-regression': 0,
    'no-baseline': 0,
    incomplete: 0,
    pass: 0,
  };
  for (let i = 0; i < sim.checks; i++) {
    const base = Array.from({ length: sim.runs }, () => noisyRun(random, sim.cv, 1, 1));
    const crashedRuns = sim.crashedRuns ?? 0;
    const cand = Array.from({ length: (sim.candidateRuns ?? sim.runs) - crashedRuns }, () =>
      noisyRun(random, sim.cv, sim.p95Factor, sim.p99Factor ?? 1),
    );
    const calibration = (side: string) => ({
      label: side,
      summaries: Array.from({ length: sim.calibrationRunsPerSide ?? 0 }, () =>
        noisyRun(random, sim.cv, 1, 1),
      ),
    });
    const noiseFloors: NoiseFloors | undefined = sim.calibrationRunsPerSide
      ? Object.fromEntries(
          measureNoiseFloor(calibration('A'), calibration('B')).map((f) => [f.key, f]),
        )
      : undefined;
    const cmp = compareRunGroups(
      { label: 'baseline', summaries: base },
      { label: 'candidate', summaries: cand },
      {},
      { noiseFloors },
    );
    const state = cellState({
      metrics: cmp.metrics.map((m) => ({ ...m, suspected: isSuspectedWorse(m) })),
      failedThresholds: [],
      incomplete: incompleteReason({
        baselineRuns: base.length,
        candidateRuns: cand.length,
        crashedRuns,
        noiseWarnings: cmp.metrics.flatMap((m) =>
          m.primary && m.noiseWarning ? [m.noiseWarning] : [],
        ),
      }),
    });
    counts[gateOutcome([{ state, hasBaseline: true, candidateRuns: cand.length }])]++;
  }
  return counts;
}
