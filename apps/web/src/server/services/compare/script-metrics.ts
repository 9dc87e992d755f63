import type { ScriptMetricStat, ScriptMetricSummary } from '@poolbench/contracts';
import { isTimeTrend, median, type CustomMetricValue, type RunSummary } from '@poolbench/stats';

/**
 * The order the script's own metrics are listed in everywhere (run page, compare view, exports,
 * REST): by name, as k6's end-of-test summary lists them, whatever order they were stored in.
 */
export const inK6Order = (names: Iterable<string>): string[] =>
  [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * One of the script's own metrics (or a group's duration, `group_duration{group:::login}`) side by
 * side: per group the median over its runs of each run's value, and each candidate's difference
 * from the baseline's median.
 */
export interface ScriptMetricRow {
  name: string;
  type: CustomMetricValue['type'];
  stat: ScriptMetricStat;
  /**
   * 'ms' for a trend of times (k6 records them in ms), '' for a trend of plain numbers, '/s' for
   * a counter's rate, '%' for a rate
   */
  unit: 'ms' | '/s' | '%' | '';
  /** one per group, in group order: n is the runs that recorded the metric */
  cells: Array<{ median: number | null; n: number }>;
  /** one per group; null for the baseline, and where either side has no value */
  diffs: Array<{ absolute: number; percent: number | null } | null>;
}

/**
 * A metric's kind as rows compare it: its type, and for a trend whether it holds times
 * (`isTimeTrend`; a trend stored before the flag is one of times), so a trend of times and one
 * of numbers under the same name are not compared.
 */
export type ScriptMetricKind =
  Exclude<CustomMetricValue['type'], 'trend'> | 'trend' | 'trend-number';

export function scriptMetricKind(v: Pick<CustomMetricValue, 'type' | 'time'>): ScriptMetricKind {
  return v.type === 'trend' && !isTimeTrend(v) ? 'trend-number' : v.type;
}

/** The statistics each kind of metric is compared and exported by, with their unit. */
export const SCRIPT_METRIC_STATS: Record<
  ScriptMetricKind,
  Array<{ stat: ScriptMetricStat; unit: ScriptMetricRow['unit'] }>
> = {
  trend: [
    { stat: 'p50', unit: 'ms' },
    { stat: 'p95', unit: 'ms' },
    { stat: 'p99', unit: 'ms' },
  ],
  'trend-number': [
    { stat: 'p50', unit: '' },
    { stat: 'p95', unit: '' },
    { stat: 'p99', unit: '' },
  ],
  counter: [
    { stat: 'rate', unit: '/s' },
    { stat: 'total', unit: '' },
  ],
  rate: [{ stat: 'ratio', unit: '%' }],
  gauge: [
    { stat: 'last', unit: '' },
    { stat: 'max', unit: '' },
  ],
};

/** The load's length in seconds: the load phase when the output saw it, else the written seconds. */
function loadSeconds(s: RunSummary): number | null {
  if (s.loadStartMs != null && s.loadEndMs != null && s.loadEndMs > s.loadStartMs)
    return (s.loadEndMs - s.loadStartMs) / 1000;
  return s.seconds > 0 ? s.seconds : null;
}

/**
 * A run's (or a second's) value of one statistic of a metric, or null when it has none; a
 * counter's rate needs the run's summary for the load's length.
 */
export function scriptMetricValue(
  v: CustomMetricValue,
  stat: ScriptMetricStat,
  summary: RunSummary | null,
): number | null {
  switch (stat) {
    case 'p50':
    case 'p95':
    case 'p99':
      return v.trend?.[stat] ?? null;
    case 'total':
      return v.sum ?? null;
    case 'rate': {
      const s = summary && loadSeconds(summary);
      return v.sum !== undefined && s ? v.sum / s : null;
    }
    case 'ratio':
      return v.rate === null || v.rate === undefined ? null : 100 * v.rate;
    case 'last':
      return v.value ?? null;
    case 'max':
      return v.max ?? null;
  }
}

/**
 * The script's own metrics that the baseline and at least one other group recorded (of the same
 * kind), from each run's whole-load summary: stored per run, not per window, so a time window
 * does not apply. Names in the order the baseline's runs list them.
 */
export function scriptMetricRows(
  groups: ReadonlyArray<{ runs: ReadonlyArray<{ summary: RunSummary | null }> }>,
  baselineIndex: number,
): ScriptMetricRow[] {
  const kindOf = (v: CustomMetricValue | undefined) => (v ? scriptMetricKind(v) : undefined);
  const kindIn = (g: (typeof groups)[number], name: string) =>
    g.runs.map((r) => kindOf(r.summary?.custom?.[name])).find((k) => k !== undefined);
  const names: string[] = [];
  for (const r of groups[baselineIndex]?.runs ?? [])
    for (const name of Object.keys(r.summary?.custom ?? {}))
      if (!names.includes(name)) names.push(name);
  const rows: ScriptMetricRow[] = [];
  for (const name of inK6Order(names)) {
    const kind = kindIn(groups[baselineIndex]!, name)!;
    if (!groups.some((g, gi) => gi !== baselineIndex && kindIn(g, name) === kind)) continue;
    const type = kind === 'trend-number' ? 'trend' : kind;
    for (const { stat, unit } of SCRIPT_METRIC_STATS[kind]) {
      const cells = groups.map((g) => {
        const vs = g.runs.flatMap((r) => {
          const v = r.summary?.custom?.[name];
          const x = v && kindOf(v) === kind ? scriptMetricValue(v, stat, r.summary!) : null;
          return x !== null && Number.isFinite(x) ? [x] : [];
        });
        return { median: vs.length ? median(vs) : null, n: vs.length };
      });
      const base = cells[baselineIndex]!.median;
      rows.push({
        name,
        type,
        stat,
        unit,
        cells,
        diffs: cells.map((c, gi) =>
          gi === baselineIndex || base === null || c.median === null
            ? null
            : {
                absolute: c.median - base,
                percent: base !== 0 ? (100 * (c.median - base)) / Math.abs(base) : null,
              },
        ),
      });
    }
  }
  return rows;
}

/**
 * The script's own metrics of a set of runs (a cell's measured runs), by name (`inK6Order`),
 * each of the kind the first run that had it says (runs of another kind under that name are left
 * out): per statistic the median over the runs that recorded it.
 */
export function scriptMetricSummaries(
  runs: ReadonlyArray<{ summary: RunSummary | null }>,
): ScriptMetricSummary[] {
  const kinds = new Map<string, ScriptMetricKind>();
  for (const r of runs)
    for (const [name, v] of Object.entries(r.summary?.custom ?? {}))
      if (!kinds.has(name)) kinds.set(name, scriptMetricKind(v));
  return inK6Order(kinds.keys()).map((name): ScriptMetricSummary => {
    const kind = kinds.get(name)!;
    const vs = runs.flatMap((r) => {
      const v = r.summary?.custom?.[name];
      return v && scriptMetricKind(v) === kind ? [v] : [];
    });
    const med = (f: (v: CustomMetricValue) => number | null | undefined) => {
      const xs = vs.flatMap((v) => {
        const x = f(v);
        return x !== null && x !== undefined && Number.isFinite(x) ? [x] : [];
      });
      return xs.length ? median(xs) : null;
    };
    const type = vs[0]!.type;
    return {
      name,
      type,
      unit: kind === 'trend' ? 'ms' : '',
      runs: vs.length,
      count: med((v) => v.count) ?? 0,
      negative: vs.reduce((n, v) => n + (v.negative ?? 0), 0),
      aboveTop: vs.reduce((n, v) => n + (v.aboveTop ?? 0), 0),
      p95: type === 'trend' ? med((v) => v.trend?.p95) : null,
      mean: type === 'trend' ? med((v) => v.trend?.mean) : null,
      sum: type === 'counter' ? med((v) => v.sum) : null,
      rate: type === 'rate' ? med((v) => v.rate) : null,
      last: type === 'gauge' ? med((v) => v.value) : null,
      max: type === 'gauge' ? med((v) => v.max) : null,
    };
  });
}
