import { median, type CustomMetricValue, type RunSummary } from '@poolbench/stats';

/** What a row of the script's metrics reads from each run's value of that metric. */
export type ScriptMetricStat = 'p50' | 'p95' | 'p99' | 'rate' | 'total' | 'ratio' | 'last' | 'max';

/**
 * One of the script's own metrics (or a group's duration, `group_duration{group:::login}`) side by
 * side: per group the median over its runs of each run's value, and each candidate's difference
 * from the baseline's median.
 */
export interface ScriptMetricRow {
  name: string;
  type: CustomMetricValue['type'];
  stat: ScriptMetricStat;
  /** 'ms' for a trend (k6 records trends in ms), '/s' for a counter's rate, '%' for a rate */
  unit: 'ms' | '/s' | '%' | '';
  /** one per group, in group order: n is the runs that recorded the metric */
  cells: Array<{ median: number | null; n: number }>;
  /** one per group; null for the baseline, and where either side has no value */
  diffs: Array<{ absolute: number; percent: number | null } | null>;
}

/** The statistics each kind of metric is compared and exported by, with their unit. */
export const SCRIPT_METRIC_STATS: Record<
  CustomMetricValue['type'],
  Array<{ stat: ScriptMetricStat; unit: ScriptMetricRow['unit'] }>
> = {
  trend: [
    { stat: 'p50', unit: 'ms' },
    { stat: 'p95', unit: 'ms' },
    { stat: 'p99', unit: 'ms' },
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
  const typeIn = (g: (typeof groups)[number], name: string) =>
    g.runs.map((r) => r.summary?.custom?.[name]?.type).find((t) => t !== undefined);
  const names: string[] = [];
  for (const r of groups[baselineIndex]?.runs ?? [])
    for (const name of Object.keys(r.summary?.custom ?? {}))
      if (!names.includes(name)) names.push(name);
  const rows: ScriptMetricRow[] = [];
  for (const name of names) {
    const type = typeIn(groups[baselineIndex]!, name)!;
    if (!groups.some((g, gi) => gi !== baselineIndex && typeIn(g, name) === type)) continue;
    for (const { stat, unit } of SCRIPT_METRIC_STATS[type]) {
      const cells = groups.map((g) => {
        const vs = g.runs.flatMap((r) => {
          const v = r.summary?.custom?.[name];
          const x = v && v.type === type ? scriptMetricValue(v, stat, r.summary!) : null;
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
