import type { ComparisonView as Comparison } from '~/lib/trpc/types';
import { GROUP_COLORS, formatScriptDiff, formatScriptValue } from './format-metric';
import { CardTable, Th } from '~/components/ui/table';

/**
 * The script's own k6 metrics side by side: per group the median over its runs, and beside each
 * candidate its difference from the baseline. Descriptive (never tested); whole runs.
 */
export function ScriptMetricsTable({ c }: { c: Comparison }) {
  if (c.scriptMetrics.length === 0) return null;
  return (
    <CardTable
      label="Script metrics"
      testId="script-metrics-table"
      colgroups={[1, 1, ...c.groups.map((_, i) => (i === c.baselineIndex ? 1 : 2))]}
      head={
        <tr>
          <Th>Metric</Th>
          <Th>Stat</Th>
          {c.groups.map((g, i) => (
            <th
              key={g.key}
              scope={i === c.baselineIndex ? 'col' : 'colgroup'}
              colSpan={i === c.baselineIndex ? 1 : 2}
              className="border-l border-slate-200 px-4 py-2.5 text-left"
            >
              <i
                className="mr-2 inline-block size-2.5 rounded-sm"
                style={{ background: GROUP_COLORS[i % GROUP_COLORS.length] }}
              />
              {g.label}
              {i === c.baselineIndex ? ' (baseline)' : ' · vs baseline'}
            </th>
          ))}
        </tr>
      }
    >
      {c.scriptMetrics.map((r) => (
        <tr
          key={`${r.name}\u0000${r.stat}`}
          data-testid="script-metric-row"
          data-metric={r.name}
          data-stat={r.stat}
        >
          <th scope="row" className="px-4 py-2 text-left font-mono font-medium text-slate-800">
            {r.name}
          </th>
          <td className="px-4 py-2 text-slate-600">
            {r.stat} <span className="text-xs text-slate-400">{r.type}</span>
          </td>
          {c.groups.map((g, gi) => {
            const cell = r.cells[gi]!;
            const value = (
              <td key="v" className="border-l border-slate-200 px-4 py-2 text-right">
                {formatScriptValue(cell.median, r.unit)}
                {cell.n > 1 ? (
                  <span className="ml-1 text-xs text-slate-400">n={cell.n}</span>
                ) : null}
              </td>
            );
            if (gi === c.baselineIndex) return value;
            return [
              value,
              <td key="d" className="px-4 py-2 text-right text-slate-600" data-testid="diff">
                {formatScriptDiff(r.diffs[gi], r.unit)}
              </td>,
            ];
          })}
        </tr>
      ))}
    </CardTable>
  );
}
