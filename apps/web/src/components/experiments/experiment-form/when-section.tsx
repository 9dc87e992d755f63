'use client';

import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { previewCron } from '~/lib/schemas/cron';
import { formatDateTime } from '~/lib/format';
import { cn } from '~/lib/cn';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { useExperimentForm } from './use-experiment-form';
import { Field, Input } from '~/components/ui/form';

/** Run now, or on a schedule: its name, cron and time zone, with the next fire times live. */
export function WhenSection() {
  const { control, register, setValue, formState } = useExperimentForm();
  const errors = formState.errors;
  const [mode, cron, timezone, name] = useWatch({
    control,
    name: ['mode', 'schedule.cron', 'schedule.timezone', 'name'],
  });
  // computed here, in the browser, from the same function the server checks with
  const cronPreview = useMemo(() => previewCron(cron, timezone), [cron, timezone]);
  return (
    <Card>
      <CardHeader title="When" />
      <CardBody className="space-y-4">
        <div
          role="radiogroup"
          aria-label="When to run"
          className="inline-flex rounded-lg border border-slate-200 p-0.5"
        >
          {(['now', 'schedule'] as const).map((k) => (
            <button
              key={k}
              type="button"
              role="radio"
              aria-checked={mode === k}
              onClick={() => setValue('mode', k)}
              className={cn(
                'rounded-md px-4 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
                mode === k
                  ? 'bg-brand-600 text-white shadow-sm'
                  : 'text-slate-600 hover:text-slate-900',
              )}
            >
              {k === 'now' ? 'Run now' : 'On a schedule'}
            </button>
          ))}
        </div>
        {mode === 'schedule' ? (
          <div className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label="Schedule name" optional error={errors.schedule?.name?.message}>
                {(p) => (
                  <Input {...p} {...register('schedule.name')} placeholder={name || 'Nightly'} />
                )}
              </Field>
              {/* Live: what is wrong with the cron shows under Cron while typing, and a time zone problem under Time zone. */}
              <Field
                label="Cron"
                help="minute hour day month weekday"
                error={
                  cronPreview.field === 'cron' ? cronPreview.error : errors.schedule?.cron?.message
                }
              >
                {(p) => (
                  <Input
                    {...p}
                    {...register('schedule.cron')}
                    className="font-mono"
                    data-testid="cron-input"
                  />
                )}
              </Field>
              <Field
                label="Time zone"
                error={
                  cronPreview.field === 'timezone'
                    ? cronPreview.error
                    : errors.schedule?.timezone?.message
                }
              >
                {(p) => (
                  <Input
                    {...p}
                    {...register('schedule.timezone')}
                    placeholder="UTC or Europe/Berlin"
                  />
                )}
              </Field>
            </div>
            {cronPreview.ok ? (
              <div className="rounded-md bg-slate-50 px-3 py-2 text-sm" data-testid="cron-preview">
                <p className="font-medium text-slate-800">{cronPreview.description}</p>
                <p className="mt-1 text-xs text-slate-500">Next fire times:</p>
                <ul className="mt-0.5 space-y-0.5 text-xs text-slate-600">
                  {cronPreview.next.map((n) => (
                    <li key={n}>{formatDateTime(n)}</li>
                  ))}
                </ul>
              </div>
            ) : cronPreview.field === 'cron' ? (
              <p className="sr-only" data-testid="cron-error">
                {cronPreview.error}
              </p>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-slate-500">
            Runs are queued at once and picked up by the next free worker, one at a time per worker.
          </p>
        )}
      </CardBody>
    </Card>
  );
}
