'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { DEFAULT_LAB_SETUP, LAB_ENDPOINTS, TargetInputSchema, type TargetInput } from '~/lib/schemas/target';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { zodProblems } from '~/lib/zod-problems';
import { cn } from '~/lib/cn';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';
import { Checkbox, Field, Input, NumberInput, Select, Textarea } from '~/components/ui/form';
import type { LabEnvironment } from '@poolbench/scenarios';
import { compactEnvironment, LabEnvironmentFields } from './lab-environment-fields';

type Kind = 'managed' | 'url';
interface Header { name: string; value: string; secret: boolean }
interface QueryRow { key: string; value: string }

export interface TargetFormInitial {
  id: string;
  kind: Kind;
  name: string;
  requestDefaults: { method?: string; path?: string; query?: Record<string, string>; headers?: Record<string, string> };
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

export function TargetForm({ initial }: { initial?: TargetFormInitial }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const editing = Boolean(initial);
  const [kind, setKind] = useState<Kind>(initial?.kind ?? 'managed');
  const [name, setName] = useState(initial?.name ?? '');
  const d = initial?.requestDefaults ?? {};
  const [method, setMethod] = useState(d.method ?? 'GET');
  const [path, setPath] = useState(d.path ?? '/health');
  const [query, setQuery] = useState<QueryRow[]>(Object.entries(d.query ?? {}).map(([key, value]) => ({ key, value })));
  const [setup, setSetup] = useState<Record<string, number | undefined>>({ ...DEFAULT_LAB_SETUP, ...initial?.setup });
  const [environment, setEnvironment] = useState<LabEnvironment>(initial?.environment ?? {});
  const [baseUrls, setBaseUrls] = useState((initial?.baseUrls ?? []).join('\n'));
  const [headers, setHeaders] = useState<Header[]>([
    ...Object.entries(d.headers ?? {}).map(([n, v]) => ({ name: n, value: v, secret: false })),
    ...(initial?.secretHeaderNames ?? []).map((n) => ({ name: n, value: '', secret: true })),
  ]);
  const [metricsUrl, setMetricsUrl] = useState(initial?.metricsUrl ?? '');
  const [applyHookUrl, setApplyHookUrl] = useState(initial?.applyHookUrl ?? '');
  const [readinessPath, setReadinessPath] = useState(initial?.readinessPath ?? '');
  const [monitorDsn, setMonitorDsn] = useState('');
  const [replaceSecrets, setReplaceSecrets] = useState(!editing);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});

  const onDone = async (t: { id: string }) => {
    await qc.invalidateQueries({ queryKey: trpc.target.list.queryKey() });
    router.push(`/targets/${t.id}`);
  };
  const create = useMutation(trpc.target.create.mutationOptions({ onSuccess: onDone }));
  const update = useMutation(trpc.target.update.mutationOptions({ onSuccess: onDone }));
  const mutation = editing ? update : create;
  const serverErrors = problemsOf(mutation.error);
  const prefix = editing ? 'target.' : '';
  const err = (p: string) => clientErrors[p] ?? serverErrors[`${prefix}${p}`] ?? null;

  function values(): TargetInput {
    const requestDefaults = { method: method as 'GET', path, query: Object.fromEntries(query.filter((q) => q.key).map((q) => [q.key, q.value])) };
    if (kind === 'managed') return { kind, name, requestDefaults, setup: setup as typeof DEFAULT_LAB_SETUP, environment: compactEnvironment(environment) };
    return {
      kind,
      name,
      requestDefaults,
      baseUrls: baseUrls.split(/\s+/).filter(Boolean),
      headers,
      metricsUrl,
      applyHookUrl,
      readinessPath,
      monitorDsn,
      replaceSecrets,
    };
  }

  const endpoint = LAB_ENDPOINTS.find((e) => e.method === method && e.path === path);
  return (
    <form
      className="space-y-6"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const v = values();
        const problems = zodProblems(TargetInputSchema.safeParse(v));
        setClientErrors(problems);
        if (Object.keys(problems).length > 0) return;
        if (initial) update.mutate({ id: initial.id, target: v });
        else create.mutate(v);
      }}
    >
      {mutation.isError ? <Alert tone="error" title={editing ? 'Could not save the target' : 'Could not create the target'}>{messageOf(mutation.error)}</Alert> : null}
      <Card>
        <CardHeader title="Kind and name" />
        <CardBody className="space-y-5">
          {!editing ? (
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-slate-800">What do you want to benchmark?</legend>
              <div className="grid gap-3 sm:grid-cols-2">
                {([
                  ['managed', 'Managed lab target', 'PoolBench starts the Go lab target for every run with the pool config applied: real cold starts, CPU and memory from /proc.'],
                  ['url', 'URL target', 'Your own service at one or more base URLs. Pool configs are applied through an optional apply hook; metrics come from Prometheus.'],
                ] as const).map(([k, title, body]) => (
                  <label key={k} className={cn('cursor-pointer rounded-lg border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500', kind === k ? 'border-brand-500 bg-brand-50/60 ring-1 ring-brand-500' : 'border-slate-200 hover:border-slate-300')}>
                    <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => setKind(k)} className="sr-only" />
                    <span className="block text-sm font-semibold text-slate-900">{title}</span>
                    <span className="mt-1 block text-xs text-slate-500">{body}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}
          <Field label="Name" error={err('name')}>
            {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} placeholder={kind === 'managed' ? 'Lab target' : 'Orders API (staging)'} />}
          </Field>
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Default request" description="Scenarios start from this request; each scenario can change it." />
        <CardBody className="space-y-5">
          {kind === 'managed' ? (
            <Field label="Endpoint" help={endpoint?.help}>
              {(p) => (
                <Select
                  {...p}
                  value={`${method} ${path}`}
                  onChange={(e) => {
                    const [m, pa] = e.target.value.split(' ') as [string, string];
                    setMethod(m);
                    setPath(pa);
                  }}
                >
                  {LAB_ENDPOINTS.map((ep) => (
                    <option key={ep.label} value={ep.label}>
                      {ep.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          ) : (
            <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
              <Field label="Method">
                {(p) => (
                  <Select {...p} value={method} onChange={(e) => setMethod(e.target.value)}>
                    {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map((m) => (
                      <option key={m}>{m}</option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Path" error={err('requestDefaults.path')}>
                {(p) => <Input {...p} value={path} onChange={(e) => setPath(e.target.value)} placeholder="/api/orders" />}
              </Field>
            </div>
          )}
          <div>
            <div className="mb-2 flex items-center justify-between">
              <span className="text-sm font-medium text-slate-800">Query parameters</span>
              <Button size="sm" variant="ghost" onClick={() => setQuery([...query, { key: '', value: '' }])}>
                <Plus className="size-3.5" /> Add parameter
              </Button>
            </div>
            {query.length === 0 ? <p className="text-xs text-slate-500">None. {kind === 'managed' ? 'For example ms=5 on /work holds a connection for 5 ms.' : ''}</p> : null}
            <div className="space-y-2">
              {query.map((q, i) => (
                <div key={i} className="flex gap-2">
                  <Input aria-label={`Parameter ${i + 1} name`} placeholder="name" value={q.key} onChange={(e) => setQuery(query.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))} />
                  <Input aria-label={`Parameter ${i + 1} value`} placeholder="value" value={q.value} onChange={(e) => setQuery(query.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} />
                  <Button variant="danger-ghost" size="sm" aria-label={`Remove parameter ${i + 1}`} onClick={() => setQuery(query.filter((_, j) => j !== i))}>
                    <Trash2 className="size-4" />
                  </Button>
                </div>
              ))}
            </div>
          </div>
        </CardBody>
      </Card>

      {kind === 'managed' ? (
        <Card>
          <CardHeader title="Lab data set" description="Passed to `lab-target setup` before each run's target starts." />
          <CardBody className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5">
            {SETUP_FIELDS.map((f) => (
              <Field key={f.key} label={f.label} help={f.help} error={err(`setup.${f.key}`)}>
                {(p) => <NumberInput {...p} value={setup[f.key]} onValue={(v) => setSetup({ ...setup, [f.key]: v })} />}
              </Field>
            ))}
          </CardBody>
        </Card>
      ) : null}
      {kind === 'managed' ? (
        <LabEnvironmentFields value={environment} onChange={setEnvironment} err={err} />
      ) : (
        <Card>
          <CardHeader title="Where it runs" description="Every host must be on the team allowlist (Settings → Allowlist)." />
          <CardBody className="space-y-5">
            <Field label="Base URLs" help="One per line; k6 uses them round-robin." error={err('baseUrls') ?? err('baseUrls.0')}>
              {(p) => <Textarea {...p} rows={3} value={baseUrls} onChange={(e) => setBaseUrls(e.target.value)} placeholder="https://api.staging.example.com" />}
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Readiness path" optional help="Probed before each run and by Test connection." error={err('readinessPath')}>
                {(p) => <Input {...p} value={readinessPath} onChange={(e) => setReadinessPath(e.target.value)} placeholder="/ready" />}
              </Field>
              <Field label="Prometheus metrics URL" optional help="Scraped every second for pool and process metrics." error={err('metricsUrl')}>
                {(p) => <Input {...p} value={metricsUrl} onChange={(e) => setMetricsUrl(e.target.value)} placeholder="https://api.staging.example.com/metrics" />}
              </Field>
              <Field label="Apply-hook URL" optional help="POSTed the pool config before each run, so your service can apply it." error={err('applyHookUrl')}>
                {(p) => <Input {...p} value={applyHookUrl} onChange={(e) => setApplyHookUrl(e.target.value)} />}
              </Field>
            </div>
            <div>
              <div className="mb-2 flex items-center justify-between">
                <span className="text-sm font-medium text-slate-800">Headers</span>
                <Button size="sm" variant="ghost" onClick={() => setHeaders([...headers, { name: '', value: '', secret: false }])}>
                  <Plus className="size-3.5" /> Add header
                </Button>
              </div>
              <p className="mb-2 text-xs text-slate-500">Secret values are encrypted at rest and never shown again; only the worker decrypts them for a run.</p>
              <div className="space-y-2">
                {headers.map((h, i) => (
                  <div key={i} className="grid grid-cols-[1fr_1.4fr_auto_auto] items-start gap-2">
                    <div>
                      <Input aria-label={`Header ${i + 1} name`} placeholder="Authorization" value={h.name} aria-invalid={Boolean(err(`headers.${i}.name`))} onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))} />
                      {err(`headers.${i}.name`) ? <p className="mt-1 text-xs text-red-700">{err(`headers.${i}.name`)}</p> : null}
                    </div>
                    <div>
                      <Input
                        aria-label={`Header ${i + 1} value`}
                        type={h.secret ? 'password' : 'text'}
                        placeholder={h.secret && editing && !replaceSecrets ? 'set (stored encrypted)' : 'value'}
                        disabled={h.secret && editing && !replaceSecrets}
                        value={h.value}
                        aria-invalid={Boolean(err(`headers.${i}.value`))}
                        onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
                      />
                      {err(`headers.${i}.value`) ? <p className="mt-1 text-xs text-red-700">{err(`headers.${i}.value`)}</p> : null}
                    </div>
                    <label className="flex h-9 items-center gap-1.5 text-xs text-slate-600">
                      <input type="checkbox" className="accent-brand-600" checked={h.secret} onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, secret: e.target.checked } : x)))} />
                      Secret
                    </label>
                    <Button variant="danger-ghost" size="sm" aria-label={`Remove header ${i + 1}`} onClick={() => setHeaders(headers.filter((_, j) => j !== i))}>
                      <Trash2 className="size-4" />
                    </Button>
                  </div>
                ))}
              </div>
            </div>
            <Field
              label="Database monitor DSN"
              optional
              help={initial?.hasMonitorDsn && !replaceSecrets ? 'Set (stored encrypted). Replace secrets to change it.' : 'The worker samples pg_stat_activity with it during runs. Stored encrypted.'}
              error={err('monitorDsn')}
            >
              {(p) => <Input {...p} type="password" value={monitorDsn} disabled={editing && !replaceSecrets} onChange={(e) => setMonitorDsn(e.target.value)} placeholder="postgresql://monitor@db:5432/app" />}
            </Field>
            {editing ? (
              <Checkbox
                label="Replace stored secrets"
                description="Stored values cannot be shown, so changing any secret means entering all of them again."
                checked={replaceSecrets}
                onChange={(e) => setReplaceSecrets(e.target.checked)}
              />
            ) : null}
          </CardBody>
        </Card>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => router.back()}>
          Cancel
        </Button>
        <Button type="submit" loading={mutation.isPending}>
          {editing ? 'Save target' : 'Create target'}
        </Button>
      </div>
    </form>
  );
}
