import type { ScriptMetricComparison, ScriptMetricSummary } from '@poolbench/contracts';
import type { HypothesisVerdict } from '@poolbench/scenarios';
/** The parts of the PoolBench REST API (see /api/openapi.json) the CLI reads. */
export interface Ref {
  id: string;
  name: string;
}

export interface Experiment {
  id: string;
  name: string;
  status: string;
  finished: boolean;
  target: Ref;
  poolConfigs: Ref[];
  scenarios: Ref[];
  progress: { done: number; total: number; byStatus: Record<string, number> };
  /** on a start: what keeps the runs from starting (no_worker_online), with what to do */
  warnings?: { code: string; message: string }[];
  runs: {
    id: string;
    status: string;
    poolConfigId: string | null;
    scenarioId: string | null;
    repeatIndex: number;
    errorMessage: string | null;
    /** what makes the run's numbers suspect (absent from servers older than run insights) */
    insights?: {
      code: string;
      severity: 'critical' | 'warning' | 'info';
      message: string;
      fix: string;
    }[];
  }[];
  webUrl: string;
  /** a pool-size advisor's question and answer (absent from servers older than the advisor) */
  advisor?: { spec: AdvisorSpec; state: AdvisorAnswer | null } | null;
  /** pre-registered claims and their decisions (absent from servers older than hypotheses) */
  hypotheses?: ExperimentHypothesis[];
}

export interface ExperimentHypothesis extends HypothesisVerdict {
  position: number;
  statement: string;
  repeatsNeeded: number | null;
}

export interface ThresholdFailure {
  runId: string;
  metric: string;
  expr: string;
  observed: number | null;
  pass: boolean;
}

export interface MetricValue {
  key: string;
  label: string;
  unit: string;
  n: number;
  median: number | null;
}

export interface SummaryCell {
  poolConfig: Ref | null;
  scenario: Ref | null;
  runs: number;
  succeeded: number;
  metrics: MetricValue[];
  /** the script's own metrics (absent from servers older than them) */
  scriptMetrics?: ScriptMetricSummary[];
  thresholds: { passed: number; failed: number; failures: ThresholdFailure[] };
}

export interface ExperimentSummary {
  experimentId: string;
  status: string;
  finished: boolean;
  cells: SummaryCell[];
  thresholdsFailed: boolean;
}

export interface MetricComparison {
  key: string;
  label: string;
  unit: string;
  direction: string;
  verdict: 'better' | 'worse' | 'no-change' | 'inconclusive';
  /** a primary metric inconclusive but one-sided significantly worse beyond the floor (absent from older servers) */
  suspected?: boolean;
  /**
   * adjusted with Holm among the primary metrics; false: a secondary metric, whose worse verdict is
   * a suspicion, not a regression (absent from older servers: every metric counts)
   */
  primary?: boolean;
  baselineMedian: number | null;
  candidateMedian: number | null;
  changePercent: { estimate: number; lower: number; upper: number } | null;
  /** the level asked for (0.95) */
  confidence: number;
  /** the coverage the interval really has (absent from servers before it was added) */
  achievedConfidence?: number;
  pValue: number | null;
  insufficient: boolean;
  lowRequests: boolean;
  reason: string;
}

export interface Comparison {
  experimentId: string;
  /** the baseline's name; with --gate-base the name of the base pool config */
  baseline: string;
  /** --gate-base: the pool config of this experiment every other one was compared with (absent from older servers) */
  base?: Ref | null;
  /** the tested metrics the verdict rests on (absent from servers older than --metrics) */
  gatedOn?: string[];
  /** the elapsed seconds [from, to) of every run compared; null or absent: whole runs */
  window?: { from: number; to: number } | null;
  outcome: 'pass' | 'regression' | 'suspected-regression' | 'no-baseline' | 'incomplete';
  cells: {
    poolConfig: Ref | null;
    scenario: Ref | null;
    baseline: {
      id: string;
      experimentId: string | null;
      runId: string | null;
      poolConfig: Ref | null;
      runs: number;
    } | null;
    candidateRuns: number;
    /** runs of the candidate that crashed (absent from older servers) */
    crashedRuns?: number;
    /** this cell's part of the outcome (absent from older servers) */
    state?: 'regression' | 'suspected-regression' | 'incomplete' | 'pass';
    /** why the cell cannot be judged (too few valid measured runs, too many crashed or invalid), or null */
    incomplete?: string | null;
    /** the candidate could not take the load its baseline took: a regression (absent before v1 had it) */
    loadNotTaken?: string | null;
    /** measured runs left out of the verdicts as invalid, with why (absent from older servers) */
    invalidRuns?: {
      runId: string;
      side: 'baseline' | 'candidate';
      reasons: { code: string; message: string }[];
    }[];
    regression: boolean;
    /** thresholds the cell's measured runs failed (absent from older servers) */
    failedThresholds?: { runId: string; metric: string; expr: string; observed: number | null }[];
    metrics: MetricComparison[];
    /** the script's own metrics both sides recorded, descriptive (absent from older servers) */
    scriptMetrics?: ScriptMetricComparison[];
  }[];
}

/** Everything one `poolbench run` learned; --json prints exactly this. */
export interface RunResult {
  experiment: Experiment;
  summary: ExperimentSummary | null;
  comparison: Comparison | null;
  shareUrl: string | null;
  outcome:
    | 'pass'
    | 'regression'
    | 'threshold'
    | 'regression+threshold'
    | 'suspected-regression'
    | 'incomplete'
    | 'hypothesis'
    | 'started'
    | 'error';
  exitCode: number;
  problems: string[];
}

export interface AdvisorSpec {
  knob: string;
  basePoolConfigName: string;
  min: number;
  max: number;
  objective:
    { kind: 'slo'; p99Ms: number; errorRate: number; rate: number } | { kind: 'max-throughput' };
  budgetRuns: number;
  repeatsPerSetting: number;
}

export interface AdvisorAnswer {
  status: 'running' | 'decided' | 'no-setting-meets' | 'budget-exhausted' | 'stopped';
  recommended: number | null;
  summary: string;
  evidence: string[];
  runsUsed: number;
  budgetRuns: number;
  settings: {
    setting: number;
    runs: number;
    meets: number;
    verdict: string;
    runsToSettle?: number | null;
    p99Median?: number | null;
    rpsMedian?: number | null;
    errorRateMedian?: number | null;
    dbConnectionsPeak?: number | null;
  }[];
  inDoubt?: { setting: number; runsToSettle: number }[];
  usl: { sigma: number; kappa: number; peakN: number | null; rSquared: number | null } | null;
}
