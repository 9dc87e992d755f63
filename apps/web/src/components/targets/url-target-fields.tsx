'use client';

import { Plus } from 'lucide-react';
import {
  Controller,
  useFieldArray,
  useWatch,
  type Control,
  type UseFormRegister,
} from 'react-hook-form';
import type { TargetValues } from '~/lib/schemas/target';
import { Button } from '~/components/ui/button';
import { RemoveRowButton } from '~/components/ui/remove-row-button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Checkbox, Field, Input, Textarea } from '~/components/ui/form';
import type { TargetFormValues } from './target-form-values';

/** Where a URL target runs: base URLs, probes, headers (secret ones sealed) and the monitor DSN. */
export function UrlTargetFields({
  control,
  register,
  err,
  editing,
  hasMonitorDsn,
}: {
  control: Control<TargetFormValues, unknown, TargetValues>;
  register: UseFormRegister<TargetFormValues>;
  err: (path: string) => string | null;
  editing: boolean;
  hasMonitorDsn: boolean;
}) {
  const headers = useFieldArray({ control, name: 'headers' });
  const [rows, replaceSecrets] = useWatch({ control, name: ['headers', 'replaceSecrets'] });
  // stored secret values cannot be shown, so they are entered again only when all are replaced
  const locked = editing && !replaceSecrets;
  return (
    <Card>
      <CardHeader
        title="Where it runs"
        description="Every host must be on the team allowlist (Settings → Allowlist)."
      />
      <CardBody className="space-y-5">
        <Field
          label="Base URLs"
          help="One per line; k6 uses them round-robin."
          error={err('baseUrls')}
        >
          {(p) => (
            <Textarea
              {...p}
              rows={3}
              {...register('baseUrls')}
              placeholder="https://api.staging.example.com"
            />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Readiness path"
            optional
            help="Probed before each run and by Test connection."
            error={err('readinessPath')}
          >
            {(p) => <Input {...p} {...register('readinessPath')} placeholder="/ready" />}
          </Field>
          <Field
            label="Prometheus metrics URL"
            optional
            help="Scraped every second for pool and process metrics."
            error={err('metricsUrl')}
          >
            {(p) => (
              <Input
                {...p}
                {...register('metricsUrl')}
                placeholder="https://api.staging.example.com/metrics"
              />
            )}
          </Field>
          <Field
            label="Apply-hook URL"
            optional
            help="POSTed the pool config before each run, so your service can apply it."
            error={err('applyHookUrl')}
          >
            {(p) => <Input {...p} {...register('applyHookUrl')} />}
          </Field>
        </div>
        <div>
          <div className="mb-2 flex items-center justify-between">
            <span className="text-sm font-medium text-slate-800">Headers</span>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => headers.append({ name: '', value: '', secret: false })}
            >
              <Plus className="size-3.5" /> Add header
            </Button>
          </div>
          <p className="mb-2 text-xs text-slate-500">
            Secret values are encrypted at rest and never shown again; only the worker decrypts them
            for a run.
          </p>
          <div className="space-y-2">
            {headers.fields.map((h, i) => {
              const secret = rows[i]?.secret ?? false;
              return (
                <div key={h.id} className="grid grid-cols-[1fr_1.4fr_auto_auto] items-start gap-2">
                  <div>
                    <Input
                      aria-label={`Header ${i + 1} name`}
                      placeholder="Authorization"
                      aria-invalid={Boolean(err(`headers.${i}.name`))}
                      {...register(`headers.${i}.name`)}
                    />
                    {err(`headers.${i}.name`) ? (
                      <p className="mt-1 text-xs text-red-700">{err(`headers.${i}.name`)}</p>
                    ) : null}
                  </div>
                  <div>
                    <Controller
                      control={control}
                      name={`headers.${i}.value`}
                      render={({ field }) => (
                        <Input
                          {...field}
                          aria-label={`Header ${i + 1} value`}
                          type={secret ? 'password' : 'text'}
                          placeholder={secret && locked ? 'set (stored encrypted)' : 'value'}
                          disabled={secret && locked}
                          aria-invalid={Boolean(err(`headers.${i}.value`))}
                        />
                      )}
                    />
                    {err(`headers.${i}.value`) ? (
                      <p className="mt-1 text-xs text-red-700">{err(`headers.${i}.value`)}</p>
                    ) : null}
                  </div>
                  <label className="flex h-9 items-center gap-1.5 text-xs text-slate-600">
                    <input
                      type="checkbox"
                      className="accent-brand-600"
                      {...register(`headers.${i}.secret`)}
                    />
                    Secret
                  </label>
                  <RemoveRowButton
                    label={`Remove header ${i + 1}`}
                    onClick={() => headers.remove(i)}
                  />
                </div>
              );
            })}
          </div>
        </div>
        <Field
          label="Database monitor DSN"
          optional
          help={
            hasMonitorDsn && locked
              ? 'Set (stored encrypted). Replace secrets to change it.'
              : 'The worker samples pg_stat_activity with it during runs. Stored encrypted.'
          }
          error={err('monitorDsn')}
        >
          {(p) => (
            <Controller
              control={control}
              name="monitorDsn"
              render={({ field }) => (
                <Input
                  {...p}
                  {...field}
                  type="password"
                  disabled={locked}
                  placeholder="postgresql://monitor@db:5432/app"
                />
              )}
            />
          )}
        </Field>
        {editing ? (
          <Checkbox
            label="Replace stored secrets"
            description="Stored values cannot be shown, so changing any secret means entering all of them again."
            {...register('replaceSecrets')}
          />
        ) : null}
      </CardBody>
    </Card>
  );
}
