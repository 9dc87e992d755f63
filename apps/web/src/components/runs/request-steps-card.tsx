import type { StoredRunSummary } from '@poolbench/db';
import { cn } from '~/lib/cn';
import { Card, CardHeader } from '~/components/ui/card';
import { formatValue } from '~/components/compare/format-metric';
import { CardTable, numberCell } from './card-table';

const ms = (v: number | null | undefined) => formatValue(v ?? null, 'ms');

/**
 * A run's requests by name, over its load: a flow's steps in order, or the requests of a mix.
 * Failed counts a request that failed by status or by one of its checks.
 */
export function RequestStepsCard({
  summary,
  flow,
}: {
  summary: Pick<StoredRunSummary, 'steps' | 'stepsOverflow'>;
  flow: boolean;
}) {
  const steps = summary.steps ?? [];
  if (steps.length < 2) return null;
  return (
    <Card className="mb-6" data-testid="request-steps">
      <CardHeader
        title={flow ? 'Steps' : 'Requests by name'}
        description={`${flow ? 'Each step of the flow' : 'Each request of the mix'} over the whole load: latency from its own requests, failed by status or by a check.${summary.stepsOverflow ? ` ${summary.stepsOverflow.toLocaleString('en-US')} requests of further names are not listed (at most 32 names are kept).` : ''}`}
      />
      <CardTable
        first={flow ? 'Step' : 'Request'}
        columns={['Requests', 'Failed', 'p50', 'p95', 'p99', 'Max']}
      >
        {steps.map((s, i) => (
          <tr key={s.name} data-testid="request-step">
            <th scope="row" className="px-4 py-2 text-left font-medium text-slate-800">
              {flow ? `${i + 1}. ` : ''}
              {s.name}
            </th>
            <td className={numberCell}>{s.requests.toLocaleString('en-US')}</td>
            <td className={cn(numberCell, s.failed > 0 ? 'text-red-700' : undefined)}>
              {s.failed.toLocaleString('en-US')}
              {s.requests > 0 ? ` (${formatValue((100 * s.failed) / s.requests, '%')})` : ''}
            </td>
            <td className={numberCell}>{ms(s.latency?.p50)}</td>
            <td className={numberCell}>{ms(s.latency?.p95)}</td>
            <td className={numberCell}>{ms(s.latency?.p99)}</td>
            <td className={numberCell}>{ms(s.latency?.max)}</td>
          </tr>
        ))}
      </CardTable>
    </Card>
  );
}
