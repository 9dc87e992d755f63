'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { cn } from '~/lib/cn';
import { Card, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';
import { formatValue } from '~/components/compare/format-metric';
import { CardTable, numberCell } from './card-table';

const BREAK_LABEL = {
  throughput: 'fell behind the rate',
  errors: 'errors > 1 %',
  latency: 'p99 > 2× first step',
} as const;
const ms = (v: number | null) => (v === null ? '—' : formatValue(v, 'ms'));

/**
 * Where an arrival-rate sweep broke: one row per step (its hold, without ramps and boundary
 * seconds), with exact percentiles, and the first step that fell behind its rate, passed 1 %
 * errors or more than doubled the first step's p99.
 */
export function SweepStepsCard({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.run.sweepSteps.queryOptions({ id: runId }));
  if (q.isPending || q.data === null) return null;
  if (q.isError)
    return (
      <Alert tone="error" className="mb-6" title="Could not split the sweep into steps">
        {messageOf(q.error)}
      </Alert>
    );
  const { steps, breakingStep, sustainedRatePerSec } = q.data;
  const verdict =
    breakingStep === null
      ? `Every step held, up to ${sustainedRatePerSec ?? '—'} req/s.`
      : `Broke at step ${breakingStep + 1} (${steps[breakingStep]!.targetRatePerSec} req/s: ${steps[breakingStep]!.breaks.map((b) => BREAK_LABEL[b]).join(', ')})${sustainedRatePerSec !== null ? `; held up to ${sustainedRatePerSec} req/s` : ''}.`;
  return (
    <Card className="mb-6" data-testid="sweep-steps">
      <CardHeader
        title="Sweep steps"
        description={`${verdict} A step breaks when it achieves under 95 % of its rate, passes 1 % errors, or its p99 is more than twice the first step's.`}
      />
      <CardTable
        first="Step"
        columns={[
          'Target req/s',
          'Achieved req/s',
          'Dropped',
          'Errors',
          'p50',
          'p95',
          'p99',
          { label: 'Seconds', left: true },
        ]}
      >
        {steps.map((s) => (
          <tr
            key={s.index}
            data-testid="sweep-step"
            className={cn(s.breaks.length ? 'bg-red-50/70' : undefined)}
          >
            <th scope="row" className="px-4 py-2 text-left font-medium text-slate-800">
              {s.index + 1}
              {s.breaks.length ? (
                <span className="ml-2 text-xs font-normal text-red-700">
                  {s.breaks.map((b) => BREAK_LABEL[b]).join(', ')}
                </span>
              ) : null}
            </th>
            <td className={numberCell}>{s.targetRatePerSec.toLocaleString('en-US')}</td>
            <td className={numberCell}>
              {s.achievedRatePerSec === null
                ? '—'
                : s.achievedRatePerSec.toLocaleString('en-US', { maximumFractionDigits: 1 })}
            </td>
            <td className={numberCell}>{s.droppedIterations.toLocaleString('en-US')}</td>
            <td className={numberCell}>
              {s.errorRate === null
                ? '—'
                : `${(s.errorRate * 100).toFixed(s.errorRate < 0.1 ? 2 : 1)} %`}
            </td>
            <td className={numberCell}>{ms(s.p50Ms)}</td>
            <td className={numberCell}>{ms(s.p95Ms)}</td>
            <td className={numberCell}>{ms(s.p99Ms)}</td>
            <td className="px-4 py-2 text-left text-xs text-slate-500">
              {s.fromSec}–{s.toSec}
              {s.includesEdges ? ' (short step: edges included)' : ''}
              {s.seconds === 0 ? ' (no data)' : ''}
            </td>
          </tr>
        ))}
      </CardTable>
    </Card>
  );
}
