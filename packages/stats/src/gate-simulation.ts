import { gateCellState } from './gate-cell-state';
import { gateOutcome, isSuspectedWorse, type GateOutcome } from './gate-outcome';
import { measureNoiseFloor } from './noise-floor';
import type { NoiseFloors } from './noise-floor-options';
import { compareRunGroups } from './run-metrics';
import type { RunSummary } from './run-summary';
import { runValidity, type InvalidRun } from './run-validity';
import { normalDraw, seededRandom } from './seeded-random';
import { summary } from './testing/summary-fixture';

/*
 * Simulated checks through the gate's own functions (`runValidity`, `measureNoiseFloor`,
 * `compareRunGroups`, `gateCellState`, `gateOutcome`): the unit test runs a few hundred, and
 * scripts/simulate-gate.ts the table in docs/outcomes.md; packages/runs/scripts/order-effects.ts
 * feeds it the run orders of `runOrder`. Exported as `@poolbench/stats/simulation` only.
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
  /**
   * The order the runs of one check ran in, 0 for a baseline run and 1 for a candidate run (as
   * `runOrder` of @poolbench/db lays out two configs); needed for `drift` and `firstInRound`.
   * Default: the baseline's runs, then the candidate's.
   */
  sequence?: ReadonlyArray<0 | 1>;
  /** latency (p50, p95, p99) rises by this share from the first run of a check to its last */
  drift?: number;
  /** the first run of each round (pair) is this much slower in latency: a cold cache after a pause */
  firstInRound?: number;
  /** of the candidate's runs, this many are outliers: latency 3× (a noisy neighbour) */
  outlierRuns?: number;
  /**
   * the chance that a run of each side did not offer its load (k6 dropped 5 % of its iterations:
   * every VU busy, or a starved generator), independently per run; such a run is invalid
   * (`runValidity`) and, on the candidate's side, may make the cell a regression by
   * `loadNotTakenReason`. Default 0 for both.
   */
  notOffered?: { baseline: number; candidate: number };
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
  latencyFactor = 1,
): RunSummary {
  const sigma = Math.sqrt(Math.log(1 + cv * cv));
  const f = () => Math.exp(sigma * normalDraw(random) - (sigma * sigma) / 2);
  const s = summary(100 * f(), 10, 0.01 * f());
  const latency = {
    ...s.latency!,
    p50: s.latency!.p50 * f() * latencyFactor,
    p95: s.latency!.p95 * f() * p95Factor * latencyFactor,
    p99: s.latency!.p99 * f() * p99Factor * latencyFactor,
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
export function simulateGate(
  sim: GateSimulation,
): Record<GateOutcome, number> & { improved: number; loadNotTaken: number } {
  const random = seededRandom(sim.seed);
  const counts: Record<GateOutcome, number> & { improved: number; loadNotTaken: number } = {
    /** checks where some primary metric was called better (a false one in an A/A check) */
    improved: 0,
    /** checks whose cell was a regression because the candidate could not take the load */
    loadNotTaken: 0,
    regression: 0,
    'suspected-regression': 0,
    'no-baseline': 0,
    incomplete: 0,
    pass: 0,
  };
  for (let i = 0; i < sim.checks; i++) {
    const crashedRuns = sim.crashedRuns ?? 0;
    const candidateRuns = (sim.candidateRuns ?? sim.runs) - crashedRuns;
    const sequence =
      sim.sequence ??
      ([...Array(sim.runs).fill(0), ...Array(candidateRuns).fill(1)] as Array<0 | 1>);
    const base: RunSummary[] = [];
    const cand: RunSummary[] = [];
    const outliers = sim.outlierRuns ?? 0;
    // a run that fell behind its load dropped 5 % of the iterations it planned (no draw at
    // chance 0, so the other settings' checks are the same with or without this option)
    const offered = (run: RunSummary, chance: number): RunSummary =>
      chance > 0 && random() < chance
        ? { ...run, droppedIterations: Math.ceil(0.05 * run.iterations) }
        : run;
    sequence.forEach((side, pos) => {
      const drift = 1 + ((sim.drift ?? 0) * pos) / Math.max(1, sequence.length - 1);
      const first = pos % 2 === 0 ? 1 + (sim.firstInRound ?? 0) : 1;
      if (side === 0 && base.length < sim.runs)
        base.push(
          offered(noisyRun(random, sim.cv, 1, 1, drift * first), sim.notOffered?.baseline ?? 0),
        );
      else if (side === 1 && cand.length < candidateRuns) {
        const outlier = cand.length < outliers ? 3 : 1;
        cand.push(
          offered(
            noisyRun(random, sim.cv, sim.p95Factor, sim.p99Factor ?? 1, drift * first * outlier),
            sim.notOffered?.candidate ?? 0,
          ),
        );
      }
    });
    // what `splitValidRuns` does with stored runs: invalid ones leave the comparison, named
    const split = (runs: RunSummary[], side: string) => {
      const valid: RunSummary[] = [];
      const invalid: InvalidRun[] = [];
      runs.forEach((summary, k) => {
        const v = runValidity({ summary, model: 'closed' });
        if (v.valid) valid.push(summary);
        else invalid.push({ runId: `${side}${k}`, reasons: v.reasons });
      });
      return { valid, invalid };
    };
    const baseRuns = split(base, 'b');
    const candRuns = split(cand, 'c');
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
      { label: 'baseline', summaries: baseRuns.valid },
      { label: 'candidate', summaries: candRuns.valid },
      {},
      { noiseFloors },
    );
    const { state, loadNotTaken } = gateCellState({
      metrics: cmp.metrics.map((m) => ({ ...m, suspected: isSuspectedWorse(m) })),
      failedThresholds: [],
      baselineRuns: baseRuns.valid.length,
      candidateRuns: candRuns.valid.length,
      crashedRuns,
      invalidBaseline: baseRuns.invalid,
      invalidCandidate: candRuns.invalid,
    });
    counts[gateOutcome([{ state, hasBaseline: true, candidateRuns: candRuns.valid.length }])]++;
    if (cmp.metrics.some((m) => m.primary && m.verdict === 'better')) counts.improved++;
    if (loadNotTaken) counts.loadNotTaken++;
  }
  return counts;
}
