import type { ComparisonView as Comparison } from '~/lib/trpc/types';
import { GROUP_COLORS, formatValue } from './format-metric';
import { CardTable } from '~/components/ui/table';

/**
 * Each request name (a flow's steps) side by side: per group, the median over its runs of each
 * run's p95 and p99, and the share of that name's requests that failed. Descriptive, like the
 * all-requests table; whole runs (a time window does not apply).
 */
export function StepsTable({ c }: { c: Comparison }) {
  const names: string[] = [];
  for (const g of c.groups)
    for (const s of g.steps) if (!names.includes(s.name)) names.push(s.name);
  if (names.length === 0) return null;
  return (
    <CardTable
      label="Steps"
      testId="steps-table"
      colgroups={[1, ...c.groups.map(() => 3)]}
      head={
        <>
          <tr>
            <th scope="col" rowSpan={2} className="px-4 py-2.5 text-left align-bottom">
              Request
            </th>
            {c.groups.map((g, i) => (
              <th
                key={g.key}
                scope="colgroup"
                colSpan={3}
                className="border-l border-slate-200 px-4 pt-2.5 text-left"
              >
                <i
                  className="mr-2 inline-block size-2.5 rounded-sm"
                  style={{ background: GROUP_COLORS[i % GROUP_COLORS.length] }}
                />
                {g.label}
              </th>
            ))}
          </tr>
          <tr>
            {c.groups.map((g) =>
              ['p95', 'p99', 'failed'].map((h, k) => (
                <th
                  key={`${g.key}-${h}`}
                  scope="col"
                  className={`px-4 pb-2.5 text-right ${k === 0 ? 'border-l border-slate-200' : ''}`}
                >
                  {h}
                </th>
              )),
            )}
          </tr>
        </>
      }
    >
      {names.map((name) => (
        <tr key={name} data-testid="steps-row">
          <th scope="row" className="px-4 py-2.5 text-left font-medium text-slate-800">
            {name}
          </th>
          {c.groups.map((g) => {
            const s = g.steps.find((x) => x.name === name);
            return [
              <td key="p95" className="border-l border-slate-200 px-4 py-2.5 text-right">
                {formatValue(s?.p95, 'ms')}
              </td>,
              <td key="p99" className="px-4 py-2.5 text-right">
                {formatValue(s?.p99, 'ms')}
              </td>,
              <td key="failed" className="px-4 py-2.5 text-right">
                {s && s.requests ? formatValue((100 * s.failed) / s.requests, '%') : '—'}
              </td>,
            ];
          })}
        </tr>
      ))}
    </CardTable>
  );
}
