'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RUN_METRICS } from '@poolbench/stats';
import { useTRPC } from '~/lib/trpc/react';
import { Card, CardHeader } from '~/components/ui/card';
import { LoadingBlock } from '~/components/ui/feedback';
import { VERDICT_LABEL, formatValue, pivotCellColor } from './format-metric';
import { Options } from '~/components/ui/form';
import { CardTable } from '~/components/ui/table';

/** An experiment as a matrix: pool configs x scenarios, each cell one metric's median. */
export function PivotCard({
  experimentId,
  experimentName,
}: {
  experimentId: string;
  experimentName: string;
}) {
  const trpc = useTRPC();
  const [metric, setMetric] = useState('p95Ms');
  const q = useQuery(trpc.compare.pivot.queryOptions({ experimentId, metric }));
  const p = q.data;
  return (
    <Card data-testid="pivot">
      <CardHeader
        title={`${experimentName}: matrix`}
        description={`Median of the repeats per pool config and scenario. Each cell is tested against ${p?.rows[0]?.name ?? 'the first pool config'} in its column (one value per run, 5 % floor, not adjusted across cells): only a verdict that holds is coloured.`}
        actions={
          <select
            aria-label="Pivot metric"
            value={metric}
            onChange={(e) => setMetric(e.target.value)}
            className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm"
          >
            <Options items={RUN_METRICS} value={(m) => m.key} label={(m) => m.label} />
          </select>
        }
      />
      {!p ? (
        <div className="p-4">
          <LoadingBlock rows={2} />
        </div>
      ) : (
        <CardTable
          label="By pool config and scenario"
          head={
            <tr>
              <th className="px-4 py-2.5 text-left">Pool config</th>
              {p.columns.map((c) => (
                <th key={c.id} className="px-4 py-2.5 text-right">
                  {c.name}
                </th>
              ))}
            </tr>
          }
        >
          {p.rows.map((r) => (
            <tr key={r.id}>
              <th scope="row" className="px-4 py-2.5 text-left font-medium text-slate-800">
                {r.name}
                <div className="text-xs font-normal text-slate-500">{r.strategy}</div>
              </th>
              {r.cells.map((c, ci) => (
                <td
                  key={ci}
                  className="px-4 py-2.5 text-right font-medium text-slate-900"
                  style={{ background: pivotCellColor(c.verdict) }}
                  data-testid="pivot-cell"
                  data-verdict={c.verdict ?? 'reference'}
                >
                  {formatValue(c.median, p.unit)}
                  <div className="text-xs font-normal text-slate-600">
                    n={c.n}
                    {c.verdict
                      ? ` · ${VERDICT_LABEL[c.verdict]}`
                      : r === p.rows[0]
                        ? ' · reference'
                        : ''}
                  </div>
                </td>
              ))}
            </tr>
          ))}
        </CardTable>
      )}
    </Card>
  );
}
