import type { StoredRunSummary } from '@poolbench/db';
import { aboveTopText } from '@poolbench/contracts';
import { isTimeTrend } from '@poolbench/stats';
import { Card, CardHeader } from '~/components/ui/card';
import { formatValue } from '~/components/compare/format-metric';
import { CardTable, numberCell } from './card-table';

type Series = NonNullable<StoredRunSummary['subMetrics']>[number];

/**
 * What a series is worth in one line: a trend's percentiles (ms for a trend of times, plain
 * numbers otherwise), a rate, a counter's sum.
 */
function valueOf(s: Series): string {
  if (s.count === 0 && !s.negative) return 'no samples';
  switch (s.type) {
    case 'trend': {
      const unit = isTimeTrend(s) ? 'ms' : '';
      const f = (v: number | null | undefined) => formatValue(v ?? null, unit);
      const below = s.negative ? ` · ${s.negative.toLocaleString('en-US')} below 0 left out` : '';
      const above = s.aboveTop ? ` · ${aboveTopText(s.aboveTop, isTimeTrend(s))}` : '';
      return `p50 ${f(s.trend?.p50)} · p95 ${f(s.trend?.p95)} · p99 ${f(s.trend?.p99)} · max ${f(s.trend?.max)}${below}${above}`;
    }
    case 'rate':
      return `rate ${formatValue(s.rate === null || s.rate === undefined ? null : s.rate * 100, '%')}`;
    case 'counter':
      return `count ${(s.sum ?? 0).toLocaleString('en-US')}`;
    case 'gauge':
      return `value ${(s.value ?? 0).toLocaleString('en-US')}`;
    default:
      return '–';
  }
}

/**
 * The tagged series a run kept for its sub-metric thresholds (`http_req_duration{name:me}`), and
 * the other values of the tags those name; what the cap of 50 series left out.
 */
export function SubMetricsCard({
  summary,
}: {
  summary: Pick<StoredRunSummary, 'subMetrics' | 'subMetricsDropped'>;
}) {
  const series = summary.subMetrics ?? [];
  if (series.length === 0) return null;
  const dropped = summary.subMetricsDropped ?? 0;
  return (
    <Card className="mb-6" data-testid="sub-metrics">
      <CardHeader
        title="Tagged sub-metrics"
        description="The series the thresholds name (a metric over the samples with those tags), then the other values of the tags they name, over the load."
      />
      {dropped > 0 ? (
        <p
          className="mx-4 mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="sub-metrics-truncated"
        >
          Truncated: at most 50 series are kept per run (the thresholds&apos; own first);{' '}
          {dropped.toLocaleString('en-US')} samples of further tag values are in no series. Their
          metric as a whole is complete.
        </p>
      ) : null}
      <CardTable first="Series" columns={['Samples', 'Value']}>
        {series.map((s) => (
          <tr key={s.name} data-testid="sub-metric">
            <th scope="row" className="px-4 py-2 text-left font-mono text-xs text-slate-800">
              {s.name}
            </th>
            <td className={numberCell}>{s.count.toLocaleString('en-US')}</td>
            <td className={numberCell}>{valueOf(s)}</td>
          </tr>
        ))}
      </CardTable>
    </Card>
  );
}
