'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RouterOutputs } from '~/lib/trpc/types';
import Link from 'next/link';
import { useState } from 'react';
import { HYPOTHESIS_METRICS, type HypothesisMetric } from '@poolbench/scenarios';
import { useTRPC } from '~/lib/trpc/react';
import { useRole } from '~/lib/hooks/use-role';
import { formatDateTime, formatNumber } from '~/lib/format';
import { Badge, type BadgeTone } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { ErrorAlert } from '~/components/ui/query-state';
import { Input } from '~/components/ui/form';
import { suggestedRepeats } from './suggested-repeats';

type HypothesesAnswer = RouterOutputs['experiment']['get']['hypotheses'];

const STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'neutral' },
  holds: { label: 'Holds', tone: 'green' },
  does_not_hold: { label: 'Does not hold', tone: 'red' },
  unresolved: { label: 'Unresolved', tone: 'amber' },
};

const signed = (v: number) =>
  `${v > 0 ? '+' : v < 0 ? '−' : ''}${formatNumber(Math.abs(v), Math.abs(v) < 10 ? 1 : 0)}`;
/** percent of the base, or the metric's own unit (percentage points for rates given in %) */
const unitText = (changeUnit: string | null, metric: HypothesisMetric) => {
  if (changeUnit === 'percent') return ' %';
  const unit = HYPOTHESIS_METRICS[metric].unit;
  return unit === '%' ? ' pp' : ` ${unit}`;
};

/**
 * The experiment's pre-registered hypotheses and their decisions (holds / does not hold /
 * unresolved with the change, its interval, p and the reason), and, once the experiment has
 * finished, "Add repeats" to resolve what is still open without starting over.
 */
export function HypothesesCard({
  experimentId,
  finished,
  hypotheses,
}: {
  experimentId: string;
  finished: boolean;
  hypotheses: HypothesesAnswer;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const [repeats, setRepeats] = useState(() => String(suggestedRepeats(hypotheses.items)));
  const extend = useMutation(
    trpc.experiment.extend.mutationOptions({
      onSuccess: () => {
        void qc.invalidateQueries({ queryKey: trpc.experiment.get.queryKey({ id: experimentId }) });
      },
    }),
  );
  const { items, preRegistered } = hypotheses;
  if (items.length === 0) return null;
  const open = items.some((h) => h.status === 'unresolved');
  return (
    <Card className="mb-6" data-testid="hypotheses">
      <CardHeader
        title="Hypotheses"
        description={
          preRegistered
            ? 'Pre-registered: fixed before the first run started. Decided when the experiment ends, from the same per-run values the comparison uses.'
            : 'Editable until the first run starts; then they are fixed (pre-registration). Decided when the experiment ends.'
        }
      />
      <CardBody className="p-0">
        <ul className="divide-y divide-slate-100">
          {items.map((h) => {
            const s = STATUS[h.status] ?? STATUS.pending!;
            return (
              <li
                key={h.id}
                className="flex flex-wrap items-start gap-3 px-4 py-3"
                data-testid="hypothesis"
              >
                <Badge tone={s.tone}>{s.label}</Badge>
                <div className="min-w-64 flex-1 text-sm">
                  <p className="font-medium text-slate-900">{h.statement}</p>
                  {h.claim ? <p className="text-slate-500">“{h.claim}”</p> : null}
                  {h.change !== null ? (
                    <p className="mt-1 tabular-nums text-slate-700">
                      Change {signed(h.change)}
                      {unitText(h.changeUnit, h.metric)}
                      {h.low !== null && h.high !== null
                        ? ` [${signed(h.low)}, ${signed(h.high)}]`
                        : ''}
                      {h.p !== null
                        ? ` · p = ${h.p < 0.001 ? '< 0.001' : formatNumber(h.p, 3)} unadjusted`
                        : ''}{' '}
                      · {h.runsUsed} runs
                    </p>
                  ) : null}
                  {h.reason ? <p className="text-slate-600">{h.reason}</p> : null}
                  {h.status === 'unresolved' && h.repeatsNeeded !== null ? (
                    <p className="text-amber-800">
                      About {h.repeatsNeeded} repeats per side would likely resolve this at the
                      spread observed.
                    </p>
                  ) : null}
                  {h.decidedAt ? (
                    <p className="text-xs text-slate-500">decided {formatDateTime(h.decidedAt)}</p>
                  ) : null}
                </div>
                <Link
                  href={h.comparePath}
                  className="text-sm font-medium text-brand-700 hover:underline"
                >
                  Compare the two cells
                </Link>
              </li>
            );
          })}
        </ul>
        {items.some((h) => h.p !== null) ? (
          <p
            className="border-t border-slate-100 px-4 py-3 text-xs text-slate-500"
            data-testid="hypotheses-p-note"
          >
            Why the comparison table can read differently for the same metric: a hypothesis is one
            question stated before the runs, so its own p decides it, unadjusted. The table asks
            about every metric at once and adjusts each p for that (Holm among the primary metrics,
            Benjamini–Hochberg among the others), so there the same metric has a larger p and can
            read inconclusive while the hypothesis is decided. Both use the same per-run values.
          </p>
        ) : null}
        {finished && open && can('member') ? (
          <form
            className="flex flex-wrap items-end gap-3 border-t border-slate-100 px-4 py-3"
            onSubmit={(ev) => {
              ev.preventDefault();
              extend.mutate({ id: experimentId, addRepeats: Number(repeats) });
            }}
          >
            <label className="text-sm text-slate-700">
              Add repeats of every cell
              <Input
                aria-label="Repeats to add"
                type="number"
                min={1}
                max={49}
                value={repeats}
                onChange={(ev) => setRepeats(ev.target.value)}
                className="mt-1 w-24"
              />
            </label>
            <Button type="submit" variant="secondary" loading={extend.isPending}>
              Add repeats
            </Button>
            <span className="text-xs text-slate-500">
              New runs are appended in the experiment's order; the hypotheses are decided again over
              all repeats.
            </span>
          </form>
        ) : null}
        <ErrorAlert error={extend.error} className="m-4" />
      </CardBody>
    </Card>
  );
}
