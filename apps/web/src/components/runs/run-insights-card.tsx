'use client';

import { useMutation } from '@tanstack/react-query';
import { AlertOctagon, AlertTriangle, Info } from 'lucide-react';
import { INSIGHT_CODES } from '@poolbench/stats';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { RoleGated } from '~/components/ui/role-gated';
import { messageOf } from '~/lib/trpc/errors';
import { useTRPC } from '~/lib/trpc/react';

export interface RunInsightView {
  code: string;
  severity: 'critical' | 'warning' | 'info';
  message: string;
  fix: string;
}

const ICON = { critical: AlertOctagon, warning: AlertTriangle, info: Info } as const;
const TONE = {
  critical: 'text-red-700',
  warning: 'text-amber-700',
  info: 'text-sky-700',
} as const;

/** Whether the run's numbers describe the load asked for (`runValidity`), with why not. */
export interface RunValidityView {
  valid: boolean;
  reasons: { code: string; message: string }[];
}

/**
 * What makes this run's numbers suspect, or shows it did not test what it meant to, each with a
 * fix (docs/insights.md), under a line saying so when the run is invalid and left out of every
 * verdict. Nothing is shown for a run with none.
 */
export function RunInsightsCard({
  insights,
  validity,
  scenario,
}: {
  insights: RunInsightView[];
  validity?: RunValidityView | null;
  /** the run's scenario (its live row): an insight can become one of its thresholds */
  scenario: { id: string; name: string } | null;
}) {
  const invalid = validity && !validity.valid ? validity.reasons : null;
  if (insights.length === 0 && !invalid) return null;
  return (
    <Card className="mb-6" data-testid="run-insights">
      <CardHeader
        title="Insights"
        description="Read the numbers above with these in mind; each comes from data this run stored."
      />
      <CardBody>
        {invalid ? (
          <p className="mb-3 text-sm font-medium text-red-700" data-testid="run-invalid">
            Invalid: {invalid.map((x) => x.message).join(', ')}. This run is left out of every
            comparison, check, schedule and trend of its cell.
          </p>
        ) : null}
        <ul className="space-y-3">
          {insights.map((i) => {
            const Icon = ICON[i.severity];
            return (
              <li key={i.code} className="flex gap-3 text-sm" data-code={i.code}>
                <Icon className={`mt-0.5 size-4 shrink-0 ${TONE[i.severity]}`} aria-hidden />
                <div>
                  <p className="text-slate-900">
                    <span className={`mr-1 font-medium ${TONE[i.severity]}`}>{i.severity}:</span>
                    {i.message}
                  </p>
                  <p className="text-slate-600">Fix: {i.fix}</p>
                  {scenario ? <FailOnInsight code={i.code} scenario={scenario} /> : null}
                </div>
              </li>
            );
          })}
        </ul>
      </CardBody>
    </Card>
  );
}

/**
 * "Fail future runs on this": the insight becomes a threshold of the scenario
 * (`insight:<code>` is "absent"), so later runs that show it end thresholds_failed.
 */
function FailOnInsight({
  code,
  scenario,
}: {
  code: string;
  scenario: { id: string; name: string };
}) {
  const trpc = useTRPC();
  const add = useMutation(trpc.scenario.addInsightThreshold.mutationOptions());
  const known = INSIGHT_CODES.find((c) => c === code);
  if (!known) return null;
  const label = 'Fail future runs on this';
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2">
      <RoleGated min="member" what="change scenarios" label={label} variant="secondary" size="sm">
        <Button
          variant="secondary"
          size="sm"
          disabled={add.isPending || add.isSuccess}
          onClick={() => add.mutate({ id: scenario.id, code: known })}
        >
          {label}
        </Button>
      </RoleGated>
      {add.isSuccess ? (
        <span className="text-xs text-slate-600" role="status">
          Added to {scenario.name}: its next runs fail when this is found (insight:{code} is
          absent).
        </span>
      ) : null}
      {add.isError ? (
        <span className="text-xs text-red-700" role="alert">
          {messageOf(add.error)}
        </span>
      ) : null}
    </div>
  );
}
