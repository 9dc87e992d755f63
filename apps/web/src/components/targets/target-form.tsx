'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { DEFAULT_LAB_SETUP, LAB_ENDPOINTS, type TargetValues } from '~/lib/schemas/target';
import { useServerErrors } from '~/lib/forms/server-errors';
import { fieldError } from '~/lib/forms/field-error';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { cn } from '~/lib/cn';
import { Button } from '~/components/ui/button';
import { RemoveRowButton } from '~/components/ui/remove-row-button';
import { FormActions } from '~/components/ui/form-actions';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';
import { Field, Input, Options, Select } from '~/components/ui/form';
import { NumberField } from '~/components/ui/number-field';
import {
  formatBytes,
  HTTP_METHODS,
  labDataBytes,
  RUNTIME_CAPABILITIES,
  runtimeOffer,
} from '@poolbench/scenarios';
import { RUNTIME_LABELS, type LabEnvironment } from '@poolbench/contracts';
import { LabEnvironmentFields } from './lab-environment-fields';
import { targetField, targetResolver, type TargetFormValues } from './target-form-values';
import { UrlTargetFields } from './url-target-fields';

type Kind = 'managed' | 'url';

export interface TargetFormInitial {
  id: string;
  kind: Kind;
  name: string;
  requestDefaults: {
    method?: string;
    path?: string;
    query?: Record<string, string>;
    headers?: Record<string, string>;
  };
  setup?: Partial<Record<keyof typeof DEFAULT_LAB_SETUP, number>>;
  environment?: LabEnvironment;
  baseUrls: string[];
  secretHeaderNames: string[];
  metricsUrl: string | null;
  applyHookUrl: string | null;
  readinessPath: string | null;
  hasMonitorDsn: boolean;
}

const SETUP_FIELDS: Array<{ key: keyof typeof DEFAULT_LAB_SETUP; label: string; help: string }> = [
  { key: 'rows', label: 'Rows', help: 'Rows in the fields table /query reads' },
  { key: 'fields', label: 'Fields per row', help: 'Columns of each row' },
  { key: 'roles', label: 'Roles', help: 'Roles for GET /roles' },
  { key: 'permissions', label: 'Permissions', help: 'Permissions joined to roles' },
  { key: 'shards', label: 'Shards', help: 'Shard keys of the data set' },
];

// a new managed target's request: one that holds a pool connection, which is what is benchmarked
const DEFAULT_REQUEST = { method: 'GET', path: '/work', query: [{ key: 'ms', value: '5' }] };

export function TargetForm({ initial }: { initial?: TargetFormInitial }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const editing = Boolean(initial);
  const d = initial?.requestDefaults ?? {};
  const form = useForm<TargetFormValues, unknown, TargetValues>({
    // The server's TargetInputSchema: errors once a field was left (or on submit), cleared as soon as it is fixed.
    resolver: targetResolver,
    mode: 'onTouched',
    reValidateMode: 'onChange',
    defaultValues: {
      kind: initial?.kind ?? 'managed',
      name: initial?.name ?? '',
      requestDefaults: initial
        ? {
            method: d.method ?? 'GET',
            path: d.path ?? '/work',
            query: Object.entries(d.query ?? {}).map(([key, value]) => ({ key, value })),
          }
        : DEFAULT_REQUEST,
      setup: { ...DEFAULT_LAB_SETUP, ...initial?.setup },
      environment: initial?.environment ?? {},
      baseUrls: (initial?.baseUrls ?? []).join('\n'),
      headers: [
        ...Object.entries(d.headers ?? {}).map(([n, v]) => ({ name: n, value: v, secret: false })),
        ...(initial?.secretHeaderNames ?? []).map((n) => ({ name: n, value: '', secret: true })),
      ],
      metricsUrl: initial?.metricsUrl ?? '',
      applyHookUrl: initial?.applyHookUrl ?? '',
      readinessPath: initial?.readinessPath ?? '',
      monitorDsn: '',
      replaceSecrets: !editing,
    },
  });
  const { control, register, setValue, formState } = form;
  const err = (path: string) => fieldError(formState.errors, path);
  const [kind, method, path, environment] = useWatch({
    control,
    name: ['kind', 'requestDefaults.method', 'requestDefaults.path', 'environment'],
  });
  const query = useFieldArray({ control, name: 'requestDefaults.query' });
  const [rows, fields] = useWatch({ control, name: ['setup.rows', 'setup.fields'] });
  const dataBytes =
    Number.isFinite(Number(rows)) && Number.isFinite(Number(fields))
      ? labDataBytes({ rows: Number(rows), fields: Number(fields) })
      : null;

  const onDone = async (t: { id: string }) => {
    await qc.invalidateQueries({ queryKey: trpc.target.list.queryKey() });
    router.push(`/targets/${t.id}`);
  };
  const create = useMutation(trpc.target.create.mutationOptions({ onSuccess: onDone }));
  const update = useMutation(trpc.target.update.mutationOptions({ onSuccess: onDone }));
  const mutation = editing ? update : create;
  useServerErrors(mutation.error, form.setError, targetField);
  // `valid` is TargetInputSchema's output: exactly what the server parses
  const onSubmit = form.handleSubmit((valid) =>
    initial ? update.mutate({ id: initial.id, target: valid }) : create.mutate(valid),
  );

  const offer = runtimeOffer(environment);
  const endpoints = LAB_ENDPOINTS.filter(
    (e) => !('upload' in e) || RUNTIME_CAPABILITIES[offer.runtime].upload,
  );
  const endpoint = endpoints.find((e) => e.method === method && e.path === path);
  const runtimeName = RUNTIME_LABELS[offer.runtime];
  const databaseName = offer.database === 'mariadb' ? 'MariaDB' : 'Postgres';
  return (
    <form className="space-y-6" noValidate onSubmit={(e) => void onSubmit(e)}>
      {mutation.isError ? (
        <Alert
          tone="error"
          title={editing ? 'Could not save the target' : 'Could not create the target'}
        >
          {messageOf(mutation.error)}
        </Alert>
      ) : null}
      <Card>
        <CardHeader title="Kind and name" />
        <CardBody className="space-y-5">
          {!editing ? (
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-slate-800">
                What do you want to benchmark?
              </legend>
              <div className="grid gap-3 sm:grid-cols-2">
                {(
                  [
                    [
                      'managed',
                      'Managed lab target',
                      `PoolBench starts the lab target (${runtimeName} on ${databaseName}; change both under Environment) for every run with the pool config applied: real cold starts, CPU and memory from /proc.`,
                    ],
                    [
                      'url',
                      'URL target',
                      'Your own service at one or more base URLs. Pool configs are applied through an optional apply hook; metrics come from Prometheus.',
                    ],
                  ] as const
                ).map(([k, title, body]) => (
                  <label
                    key={k}
                    className={cn(
                      'cursor-pointer rounded-lg border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                      kind === k
                        ? 'border-brand-500 bg-brand-50/60 ring-1 ring-brand-500'
                        : 'border-slate-200 hover:border-slate-300',
                    )}
                  >
                    <input
                      type="radio"
                      name="kind"
                      value={k}
                      checked={kind === k}
                      onChange={() => {
                        setValue('kind', k);
                        // the lab target's /work?ms=5 means nothing to someone else's service
                        if (k === 'url' && path === DEFAULT_REQUEST.path) {
                          setValue('requestDefaults.path', '/');
                          query.replace([]);
                        }
                      }}
                      className="sr-only"
                    />
                    <span className="block text-sm font-semibold text-slate-900">{title}</span>
                    <span className="mt-1 block text-xs text-slate-500">{body}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}
          <Field label="Name" error={err('name')}>
            {(p) => (
              <Input
                {...p}
                {...register('name')}
                placeholder={kind === 'managed' ? 'Lab target' : 'Orders API (staging)'}
              />
            )}
          </Field>
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title="Default request"
          description="Scenarios start from this request; each scenario can change it."
        />
        <CardBody className="space-y-5">
          {kind === 'managed' ? (
            <Field label="Endpoint" help={endpoint?.help}>
              {(p) => (
                <Select
                  {...p}
                  value={`${method} ${path}`}
                  onChange={(e) => {
                    const [m, pa] = e.target.value.split(' ') as [string, string];
                    setValue('requestDefaults.method', m);
                    setValue('requestDefaults.path', pa);
                  }}
                >
                  {endpoint ? null : (
                    <option value={`${method} ${path}`}>Choose an endpoint</option>
                  )}
                  <Options items={endpoints} value={(ep) => ep.label} />
                </Select>
              )}
            </Field>
          ) : (
            <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
              <Field label="Method">
                {(p) => (
                  <Select {...p} {...register('requestDefaults.method')}>
                    <Options items={HTTP_METHODS} />
                  </Select>
                )}
              </Field>
              <Field label="Path" error={err('requestDefaults.path')}>
                {(p) => (
                  <Input {...p} {...register('requestDefaults.path')} placeholder="/api/orders" />
                )}
              </Field>
            </div>
          )}
          <div>
            <div className="mb-2 flex items-center justify-between">
              <span className="text-sm font-medium text-slate-800">Query parameters</span>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => query.append({ key: '', value: '' })}
              >
                <Plus className="size-3.5" /> Add parameter
              </Button>
            </div>
            {err('requestDefaults.query') ? (
              <p className="mb-2 text-xs text-red-700">{err('requestDefaults.query')}</p>
            ) : null}
            {query.fields.length === 0 ? (
              <p className="text-xs text-slate-500">
                None.{' '}
                {kind === 'managed' ? 'For example ms=5 on /work holds a connection for 5 ms.' : ''}
              </p>
            ) : null}
            <div className="space-y-2">
              {query.fields.map((q, i) => (
                <div key={q.id} className="flex gap-2">
                  <Input
                    aria-label={`Parameter ${i + 1} name`}
                    placeholder="name"
                    {...register(`requestDefaults.query.${i}.key`)}
                  />
                  <Input
                    aria-label={`Parameter ${i + 1} value`}
                    placeholder="value"
                    {...register(`requestDefaults.query.${i}.value`)}
                  />
                  <RemoveRowButton
                    label={`Remove parameter ${i + 1}`}
                    onClick={() => query.remove(i)}
                  />
                </div>
              ))}
            </div>
          </div>
        </CardBody>
      </Card>

      {kind === 'managed' ? (
        <Card>
          <CardHeader
            title="Lab data set"
            description="Passed to `lab-target setup` before each run's target starts."
          />
          <CardBody className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5">
            {SETUP_FIELDS.map((f) => (
              <NumberField
                key={f.key}
                label={f.label}
                help={f.help}
                error={err(`setup.${f.key}`)}
                control={control}
                name={`setup.${f.key}`}
              />
            ))}
            {dataBytes !== null ? (
              <p
                className="text-xs text-slate-500 sm:col-span-3 lg:col-span-5"
                data-testid="lab-data-size"
              >
                This data set takes about <b>{formatBytes(dataBytes)}</b> on the lab database
                server: each shape has a database of its own there, kept while targets use it, and
                the installation caps the rows × fields of one shape.
              </p>
            ) : null}
          </CardBody>
        </Card>
      ) : null}
      {kind === 'managed' ? (
        <LabEnvironmentFields
          value={environment}
          onChange={(v: LabEnvironment) => {
            setValue('environment', v, { shouldValidate: true, shouldDirty: true });
            // POST /upload exists only on runtimes with a blob store path
            if (path === '/upload' && !RUNTIME_CAPABILITIES[runtimeOffer(v).runtime].upload) {
              setValue('requestDefaults.method', DEFAULT_REQUEST.method);
              setValue('requestDefaults.path', DEFAULT_REQUEST.path);
            }
          }}
          err={err}
        />
      ) : (
        <UrlTargetFields
          control={control}
          register={register}
          err={err}
          editing={editing}
          hasMonitorDsn={initial?.hasMonitorDsn ?? false}
        />
      )}
      <FormActions>
        <Button type="submit" loading={mutation.isPending}>
          {editing ? 'Save target' : 'Create target'}
        </Button>
      </FormActions>
    </form>
  );
}
