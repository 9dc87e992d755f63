import type { CustomMetrics, RunSummary, SecondChecks } from '@poolbench/stats';
import {
  inK6Order,
  SCRIPT_METRIC_STATS,
  scriptMetricKind,
  scriptMetricValue,
  type ScriptMetricKind,
} from '../compare/script-metrics';
import type { ScriptMetricStat } from '@poolbench/contracts';

/** An export's column of a check or a script's own metric: its header and its value in a row. */
export interface ScriptColumn<R> {
  header: string;
  value: (row: R) => number | null;
}

const checkLabel = (c: { group: string; name: string }) =>
  c.group ? `${c.group}::${c.name}` : c.name;

/**
 * The columns of the checks and script metrics the rows had, in the order first seen: per check
 * `check:<group::name>:passes` and `:fails`, per metric `custom:<name>:<stat>` with its unit
 * (`_ms` only for a trend of times, none for a trend of plain numbers; the stats of its kind as
 * the first row that had it says; `skip` leaves some out, as a second has no rate of its own
 * beside its total).
 */
export function scriptColumns<R>(
  rows: readonly R[],
  of: (row: R) => {
    checks: SecondChecks | null | undefined;
    custom: CustomMetrics | null | undefined;
    summary: RunSummary | null;
  },
  skip: readonly ScriptMetricStat[] = [],
): ScriptColumn<R>[] {
  const checks = new Map<string, { group: string; name: string }>();
  const metrics = new Map<string, ScriptMetricKind>();
  for (const row of rows) {
    const o = of(row);
    for (const c of o.checks?.items ?? []) checks.set(checkLabel(c), c);
    for (const [name, v] of Object.entries(o.custom ?? {}))
      if (!metrics.has(name)) metrics.set(name, scriptMetricKind(v));
  }
  const out: ScriptColumn<R>[] = [];
  for (const [label, key] of checks) {
    const find = (row: R) =>
      of(row).checks?.items.find((c) => c.group === key.group && c.name === key.name);
    out.push(
      { header: `check:${label}:passes`, value: (row) => find(row)?.passes ?? null },
      { header: `check:${label}:fails`, value: (row) => find(row)?.fails ?? null },
    );
  }
  for (const name of inK6Order(metrics.keys())) {
    const kind = metrics.get(name)!;
    for (const { stat, unit } of SCRIPT_METRIC_STATS[kind]) {
      if (skip.includes(stat)) continue;
      out.push({
        header: `custom:${name}:${stat}${unit === 'ms' ? '_ms' : unit === '%' ? '_percent' : unit === '/s' ? '_per_s' : ''}`,
        value: (row) => {
          const o = of(row);
          const v = o.custom?.[name];
          return v && scriptMetricKind(v) === kind ? scriptMetricValue(v, stat, o.summary) : null;
        },
      });
    }
  }
  return out;
}
