import type { Db } from '@poolbench/db';
import {
  invalidRunsText,
  loadNotTakenReason,
  isSuspectedWorse,
  createHistogram,
  histogramStatsMs,
  median,
  percentileMs,
  RUN_METRICS,
  type HdrStatsMs,
  type InvalidRun,
  type Verdict,
} from '@poolbench/stats';
import { type TestedRunMetricKey } from '@poolbench/contracts';
import type { SeriesMetricKey, SeriesPointOut } from '~/lib/compare/series-metrics';
import { runHistograms } from './histogram-cache';
import { groupSteps, type GroupStep } from './group-steps';
import { scriptMetricRows, type ScriptMetricRow } from './script-metrics';
import { seriesBands } from './series-bands';
import { loadGroups, type CompareGroup, type GroupNames } from './load-groups';
import {
  comparedSummaries,
  groupComparisons,
  groupNoiseFloor,
  loadNoiseFloors,
} from './group-statistics';
import type { StoredNoiseFloor } from '@poolbench/runs';
import type { Selection } from '~/lib/compare/selection';

/** Percentiles of the spectrum chart; the x axis is log(1 / (1 - p)) so the tail gets room. */
export const SPECTRUM_PERCENTILES = [
  0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100,
];
const FINGERPRINT_FIELDS = ['cpuModel', 'cpuCount', 'k6Version', 'labTargetVersion'] as const;
const MIN_REPEATS = 4;

export interface CandidateCell {
  median: number | null;
  n: number;
  changePercent: { estimate: number; lower: number; upper: number } | null;
  /** the coverage the interval actually has: below the nominal 95 % when there are too few runs */
  achievedConfidence: number | null;
  pValue: number | null;
  verdict: Verdict | null;
  /** a primary metric, inconclusive, worse beyond the floor and one-sided significant (`isSuspectedWorse`) */
  suspectedWorse: boolean;
  /** adjusted with Holm among the primary metrics (else Benjamini–Hochberg among the rest) */
  primary: boolean;
  reason: string | null;
  insufficient: boolean;
  lowRequests: boolean;
  /**
   * the practical floor, when it is an A/A calibration's measured noise floor (larger than the
   * metric's default): percent, or the metric's unit when `absolute`
   */
  noiseFloor: { unit: 'percent' | 'absolute'; value: number } | null;
  /**
   * the A/A calibration's run-to-run spread is so large that these run counts would miss a
   * doubling ("p99 noise on this machine is ±48 % …"): shown beside the verdict; a primary
   * metric's makes a gate's cell incomplete
   */
  noiseWarning: string | null;
  warnings: string[];
}

export interface MetricRow {
  key: string;
  label: string;
  unit: string;
  direction: 'lower-is-better' | 'higher-is-better';
  tested: boolean;
  /** one per group, in group order; the baseline's entry has no comparison */
  cells: Array<{ median: number | null; min: number | null; max: number | null; n: number }>;
  /** one per group; null for the baseline itself */
  comparisons: Array<CandidateCell | null>;
}

export interface ComparisonWarning {
  code:
    | 'few-repeats'
    | 'low-requests'
    | 'environment-differs'
    | 'not-tested'
    | 'run-insights'
    | 'invalid-runs'
    | 'load-not-taken';
  message: string;
}

export interface ComparisonGroupOut extends GroupNames {
  kind: 'run' | 'cell';
  runIds: string[];
  repeats: number;
  /** measured runs of the cell left out of every statistic as invalid, with why */
  invalidRuns: InvalidRun[];
  /** all requests of all repeats (in the window), from merged per-second histograms */
  merged: HdrStatsMs | null;
  requests: number;
  failed: number;
  /** requests by name (a flow's steps) over whole runs; empty with a single name */
  steps: GroupStep[];
}

export interface Comparison {
  groups: ComparisonGroupOut[];
  baselineIndex: number;
  rows: MetricRow[];
  /**
   * the script's own k6 metrics (and groups' durations) the baseline and another group recorded,
   * over whole runs: descriptive, never tested
   */
  scriptMetrics: ScriptMetricRow[];
  warnings: ComparisonWarning[];
  spectrum: Array<{ percentile: number; values: Array<number | null> }>;
  series: Record<SeriesMetricKey, SeriesPointOut[]>;
  window: { from: number; to: number } | null;
  /** last second with data + 1 (within the window, when there is one) */
  durationSeconds: number;
  /** the longest run's length in seconds, whatever the window */
  spanSeconds: number;
  /** per group, the A/A calibration whose noise floor its comparisons use (null: none, or turned off) */
  noiseFloors: Array<{
    experimentId: string;
    runsPerSide: number;
    createdAt: string;
  } | null>;
}

function uniqueLabels(groups: CompareGroup[]): string[] {
  const labels = groups.map((g) => g.label);
  const dup = (l: string) => labels.filter((x) => x === l).length > 1;
  const withScenario = labels.map((l, i) => (dup(l) ? `${l} · ${groups[i]!.scenarioName}` : l));
  return withScenario.map((l, i) =>
    withScenario.filter((x) => x === l).length > 1 ? `${l} · ${groups[i]!.experimentName}` : l,
  );
}

function environmentWarning(groups: CompareGroup[]): ComparisonWarning | null {
  const differing: string[] = [];
  for (const f of FINGERPRINT_FIELDS) {
    const seen = new Set<string>();
    for (const g of groups)
      for (const r of g.runs)
        if (r.environment && r.environment[f] !== undefined && r.environment[f] !== null)
          seen.add(String(r.environment[f]));
    if (seen.size > 1) differing.push(`${f} (${[...seen].slice(0, 3).join(' / ')})`);
  }
  return differing.length
    ? {
        code: 'environment-differs',
        message: `The runs were measured on different environments: ${differing.join('; ')}. Differences may come from the machine, not the config.`,
      }
    : null;
}

/**
 * Per group, the runs whose insights (`runInsights`) say their numbers are suspect: critical and
 * warning ones, counted by kind ("2 of 5 runs: the load asked for was not offered"). Computed from
 * the stored summaries and snapshots, without per-second data.
 */
function insightsWarning(groups: CompareGroup[], labels: string[]): ComparisonWarning | null {
  const parts: string[] = [];
  groups.forEach((g, gi) => {
    const byCode = new Map<string, { n: number; message: string }>();
    for (const r of g.runs) {
      const found = r.insights.filter((i) => i.severity !== 'info');
      for (const i of found) {
        const seen = byCode.get(i.code);
        byCode.set(i.code, { n: (seen?.n ?? 0) + 1, message: seen?.message ?? i.message });
      }
    }
    for (const [code, { n }] of byCode)
      parts.push(`${labels[gi]}: ${n} of ${g.runs.length} runs ${INSIGHT_LABEL[code] ?? code}`);
  });
  return parts.length
    ? {
        code: 'run-insights',
        message: `Some runs' numbers are suspect (see each run's Insights): ${parts.join('; ')}.`,
      }
    : null;
}

/**
 * The runs left out of the statistics as invalid (`splitValidRuns`), per group with their reasons:
 * the table, charts and verdicts are over the others.
 */
function invalidRunsWarning(groups: CompareGroup[], labels: string[]): ComparisonWarning | null {
  const parts = groups.flatMap((g, gi) =>
    g.invalidRuns.length
      ? [
          `${labels[gi]}: ${g.invalidRuns.length} of ${g.invalidRuns.length + g.runs.length} runs invalid (${invalidRunsText(g.invalidRuns)})`,
        ]
      : [],
  );
  return parts.length
    ? {
        code: 'invalid-runs',
        message: `Left out of every statistic and verdict because their numbers do not describe the load asked for: ${parts.join('; ')}.`,
      }
    : null;
}

const INSIGHT_LABEL: Record<string, string> = {
  'load-not-offered': 'dropped iterations (within the 1 % a valid run may drop)',
  'vus-exhausted': 'ran out of VUs',
  'generator-cpu-saturated': 'had a load generator at full CPU',
  'target-cpu-saturated': "had the target's CPU pinned at its limit",
  'db-connection-limit': 'met the database connection limit',
  'coordinated-omission-risk': 'risk coordinated omission',
  'machine-busy': 'started on a busy machine',
  'heavy-disturbance': 'ran beside heavy other work (disturbance)',
  'samples-late': 'lost late samples',
};

/**
 * The whole compare view for a selection, computed on the server: the statistics table (one value
 * per run per metric, compared with @poolbench/stats), all-requests percentiles from merged
 * histograms, the percentile spectrum and per-second bands. Every read is scoped to `teamId`.
 */
export async function buildComparison(
  db: Db,
  teamId: string,
  selection: Selection,
  /**
   * gateMetrics: test only these metrics, p adjusted over them alone (the CI gate's --metrics);
   * groups: the selection's items already loaded with loadGroups (by the same team), not read again
   */
  opts: {
    maxPoints?: number;
    baselineIndex?: number;
    gateMetrics?: readonly TestedRunMetricKey[];
    groups?: CompareGroup[];
    /** calibrated noise floors already loaded (loadNoiseFloors) for these groups */
    noiseFloors?: Map<string, StoredNoiseFloor>;
  } = {},
): Promise<Comparison> {
  const groups = opts.groups ?? (await loadGroups(db, teamId, selection.items));
  const floors = opts.noiseFloors ?? (await loadNoiseFloors(db, teamId, groups, selection));
  const baselineIndex = Math.min(opts.baselineIndex ?? selection.baseline ?? 0, groups.length - 1);
  const labels = uniqueLabels(groups);
  const window = selection.window ?? null;
  const allRunIds = groups.flatMap((g) => g.runs.map((r) => r.id));

  let span = Math.max(0, ...groups.flatMap((g) => g.runs.map((r) => r.summary?.seconds ?? 0)));
  if (groups.some((g) => g.runs.some((r) => !r.summary))) {
    const [m] = await db.$queryRaw<
      Array<{ s: number | null }>
    >`SELECT max(second) + 1 AS s FROM "RunSecond" WHERE "runId" = ANY(${allRunIds}::text[])`;
    span = Math.max(span, Number(m?.s ?? 0));
  }
  const [bands, hists] = await Promise.all([
    seriesBands(
      db,
      groups.map((g) => ({ runIds: g.runs.map((r) => r.id) })),
      window,
      opts.maxPoints ?? 300,
    ),
    runHistograms(
      db,
      groups.flatMap((g) => g.runs),
      window,
    ),
  ]);
  // With a window, every statistic is over that window of each run, like the charts beside it.
  const summaryOf = await comparedSummaries(db, groups, window, hists);
  const comparisons = groupComparisons(groups, baselineIndex, summaryOf, opts.gateMetrics, floors);
  const untestedReason = (d: (typeof RUN_METRICS)[number]) =>
    !d.tested
      ? 'shown, never tested: one extreme request says nothing about a config'
      : opts.gateMetrics && !opts.gateMetrics.some((k) => k === d.key)
        ? 'not among the metrics this comparison is gated on'
        : 'no values to compare';

  const defs = RUN_METRICS.filter((d) => !selection.metrics || selection.metrics.includes(d.key));
  const rows: MetricRow[] = defs.map((d) => {
    const cells = groups.map((g) => {
      const vs = g.runs
        .map((r) => summaryOf(r))
        .map((x) => (x ? d.value(x) : null))
        .filter((v): v is number => v !== null && Number.isFinite(v));
      return vs.length
        ? { median: median(vs), min: Math.min(...vs), max: Math.max(...vs), n: vs.length }
        : { median: null, min: null, max: null, n: 0 };
    });
    return {
      key: d.key,
      label: d.label,
      unit: d.unit,
      direction: d.direction,
      tested: d.tested,
      cells,
      comparisons: comparisons.map((c, gi) => {
        if (!c) return null;
        const m = c.metrics.find((x) => x.def.key === d.key);
        const cell = { median: cells[gi]!.median, n: cells[gi]!.n };
        if (!m)
          return {
            ...cell,
            changePercent: null,
            achievedConfidence: null,
            pValue: null,
            verdict: null,
            suspectedWorse: false,
            primary: false,
            reason: untestedReason(d),
            insufficient: false,
            lowRequests: false,
            noiseFloor: null,
            noiseWarning: null,
            warnings: [],
          };
        return {
          ...cell,
          changePercent: m.changePercent,
          achievedConfidence: m.changePercent ? m.achievedConfidence : null,
          pValue: m.pValue,
          verdict: m.verdict,
          suspectedWorse: isSuspectedWorse(m),
          // adjusted with Holm among the primary metrics, else Benjamini–Hochberg among the rest
          primary: m.primary,
          reason: m.reason,
          insufficient: m.insufficient,
          lowRequests: m.lowRequests,
          noiseFloor: m.noiseFloor
            ? m.floor.absolute !== null && m.scale === 'linear'
              ? { unit: 'absolute' as const, value: m.floor.absolute }
              : { unit: 'percent' as const, value: m.floor.percent }
            : null,
          noiseWarning: m.noiseWarning,
          warnings: m.warnings.map((w) => w.message),
        };
      }),
    };
  });

  const warnings: ComparisonWarning[] = [];
  const invalid = invalidRunsWarning(groups, labels);
  if (invalid) warnings.push(invalid);
  // a group that fell behind the load the baseline took is the regression, not a gap in the data
  const base = groups[baselineIndex]!;
  const behind = groups.flatMap((g, gi) => {
    if (gi === baselineIndex) return [];
    const reason = loadNotTakenReason({
      baselineRuns: base.runs.length,
      candidateRuns: g.runs.length,
      invalidBaseline: base.invalidRuns,
      invalidCandidate: g.invalidRuns,
    });
    return reason ? [`${labels[gi]}: ${reason}`] : [];
  });
  if (behind.length)
    warnings.push({
      code: 'load-not-taken',
      message: `A regression the statistics cannot show (the slowest requests were never sent): ${behind.join('; ')}.`,
    });
  const few = groups.filter((g) => g.runs.length < MIN_REPEATS);
  if (few.length) {
    warnings.push({
      code: 'few-repeats',
      message: `${few.map((g, i) => `${labels[groups.indexOf(g)] ?? i} has ${g.runs.length} ${g.invalidRuns.length ? 'valid ' : ''}${g.runs.length === 1 ? 'run' : 'runs'}`).join(', ')}: with fewer than ${MIN_REPEATS} repeats per side no difference can be significant at α = 0.05, so verdicts stay inconclusive.`,
    });
  }
  if (groups.some((g) => g.runs.some((r) => (summaryOf(r)?.requests ?? Infinity) < 1000))) {
    warnings.push({
      code: 'low-requests',
      message: `At least one run had fewer than 1,000 requests${window ? ' in the window' : ''}, so its p99 rests on a handful of requests; read the p99 row with care.`,
    });
  }
  const env = environmentWarning(groups);
  if (env) warnings.push(env);
  const insights = insightsWarning(groups, labels);
  if (insights) warnings.push(insights);

  const merged = groups.map((g) => {
    const h = createHistogram();
    for (const r of g.runs) {
      const one = hists.get(r.id);
      if (one) h.add(one);
    }
    return h;
  });
  const spectrum = SPECTRUM_PERCENTILES.map((p) => ({
    percentile: p,
    values: merged.map((h) => percentileMs(h, p) ?? null),
  }));
  const { series, totals, durationSeconds } = bands;

  return {
    groups: groups.map((g, i) => ({
      key: g.key,
      label: labels[i]!,
      kind: g.item.kind,
      poolConfigName: g.poolConfigName,
      strategy: g.strategy,
      scenarioName: g.scenarioName,
      experimentName: g.experimentName,
      experimentId: g.experimentId,
      targetId: g.targetId,
      targetName: g.targetName,
      poolConfigId: g.poolConfigId,
      scenarioId: g.scenarioId,
      runIds: g.runs.map((r) => r.id),
      repeats: g.runs.length,
      invalidRuns: g.invalidRuns,
      merged: histogramStatsMs(merged[i]!),
      requests: totals[i]!.requests,
      failed: totals[i]!.failed,
      steps: groupSteps(g.runs),
    })),
    baselineIndex,
    rows,
    scriptMetrics: scriptMetricRows(groups, baselineIndex),
    warnings,
    spectrum,
    series,
    window,
    durationSeconds,
    spanSeconds: span,
    noiseFloors: groups.map((g) => {
      const f = groupNoiseFloor(floors, g);
      return f
        ? {
            experimentId: f.experimentId,
            runsPerSide: f.runsPerSide,
            createdAt: f.createdAt.toISOString(),
          }
        : null;
    }),
  };
}
