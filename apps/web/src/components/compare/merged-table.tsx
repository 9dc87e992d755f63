import type { ComparisonView as Comparison } from '~/lib/trpc/types';
import { GROUP_COLORS, formatValue } from './format-metric';
import { CardTable } from '~/components/ui/table';

const COLS = [
  ['p50', 'p50'],
  ['p90', 'p90'],
  ['p95', 'p95'],
  ['p99', 'p99'],
  ['p999', 'p99.9'],
  ['max', 'max'],
] as const;

/** All-requests percentiles of each group (every request of every repeat, merged histograms). */
export function MergedTable({ c }: { c: Comparison }) {
  return (
    <CardTable
      label="All requests"
      testId="merged-table"
      head={
        <tr>
          <th className="px-4 py-2.5 text-left">Config</th>
          <th className="px-4 py-2.5 text-right">Requests</th>
          <th className="px-4 py-2.5 text-right">Errors</th>
          {COLS.map(([, l]) => (
            <th key={l} className="px-4 py-2.5 text-right">
              {l}
            </th>
          ))}
        </tr>
      }
    >
      {c.groups.map((g, i) => (
        <tr key={g.key}>
          <td className="whitespace-nowrap px-4 py-2.5 font-medium text-slate-800">
            <i
              className="mr-2 inline-block size-2.5 rounded-sm"
              style={{ background: GROUP_COLORS[i % GROUP_COLORS.length] }}
            />
            {g.label}
          </td>
          <td className="px-4 py-2.5 text-right">{g.requests.toLocaleString('en-US')}</td>
          <td className="px-4 py-2.5 text-right">
            {g.requests ? formatValue((100 * g.failed) / g.requests, '%') : '—'}
          </td>
          {COLS.map(([k, l]) => (
            <td key={l} className="px-4 py-2.5 text-right">
              {formatValue(g.merged?.[k], 'ms')}
            </td>
          ))}
        </tr>
      ))}
    </CardTable>
  );
}
