'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { generateScenario, ScenarioSchema, THRESHOLD_METRICS, TEMPLATES, TEMPLATE_IDS, validateScenario, type TemplateId } from '@poolbench/scenarios';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { formatDuration } from '~/lib/format';
import { cn } from '~/lib/cn';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { CodeBlock } from '~/components/ui/code-block';
import { Alert } from '~/components/ui/feedback';
import { Field, Input, NumberInput, Select } from '~/components/ui/form';
import { DurationInput } from '~/components/ui/duration-input';
import { ProfileChart } from './profile-chart';
import { TEMPLATE_DEFAULTS, paramLabel, paramUnit } from './template-defaults';

interface Req { method: string; path: string; query: Array<{ key: string; value: string }>; bodyBytes?: number; weight?: number }
interface Thr { metric: string; expr: string }

export interface ScenarioInitial {
  id: string;
  name: string;
  scenario: Record<string, unknown>;
}

const EditorSeed = z.looseObject({
  template: z.enum(TEMPLATE_IDS),
  params: z.record(z.string(), z.unknown()).default({}),
  requests: z.unknown(),
  thresholds: z.array(z.looseObject({ metric: z.string(), expr: z.string() })).optional(),
  readyPath: z.string().optional(),
});

function toReqs(raw: unknown): Req[] {
  return ((raw as Array<Record<string, unknown>>) ?? []).map((r) => ({
    method: (r.method as string) ?? 'GET',
    path: (r.path as string) ?? '/',
    query: Object.entries((r.query as Record<string, unknown>) ?? {}).map(([key, value]) => ({ key, value: String(value) })),
    bodyBytes: (r.body as { kind?: string; sizeBytes?: number } | undefined)?.kind === 'bytes' ? (r.body as { sizeBytes: number }).sizeBytes : undefined,
    weight: (r.weight as number) ?? 1,
  }));
}

export function ScenarioEditor({ initial, defaultTemplate, defaultRequest }: { initial?: ScenarioInitial; defaultTemplate?: TemplateId; defaultRequest?: { method: string; path: string } }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  // The saved scenario as the editor starts from it; a row from an older schema still opens.
  const s0 = EditorSeed.safeParse(initial?.scenario).data;
  const [name, setName] = useState(initial?.name ?? '');
  const [template, setTemplate] = useState<TemplateId>(s0?.template ?? defaultTemplate ?? 'cold-start-burst');
  const [paramsBy, setParamsBy] = useState<Record<string, Record<string, unknown>>>(() => ({ ...TEMPLATE_DEFAULTS, ...(s0 ? { [s0.template]: s0.params } : {}) }));
  const [requests, setRequests] = useState<Req[]>(s0 ? toReqs(s0.requests) : [{ method: defaultRequest?.method ?? 'GET', path: defaultRequest?.path ?? '/work', query: defaultRequest ? [] : [{ key: 'ms', value: '5' }], weight: 1 }]);
  const [thresholds, setThresholds] = useState<Thr[]>((s0?.thresholds ?? [{ metric: 'http_req_failed', expr: 'rate<0.01' }]).map((t) => ({ metric: t.metric, expr: t.expr })));
  const [readyPath, setReadyPath] = useState(s0?.readyPath ?? '/ready');
  const [showScript, setShowScript] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const params = paramsBy[template] ?? {};

  const scenario = useMemo(
    () => ({
      template,
      params,
      readyPath,
      thresholds,
      requests: requests.map((r) => ({
        method: r.method,
        path: r.path,
        query: Object.fromEntries(r.query.filter((q) => q.key).map((q) => [q.key, /^-?\d+(\.\d+)?$/.test(q.value) ? Number(q.value) : q.value])),
        ...(r.bodyBytes ? { body: { kind: 'bytes', sizeBytes: r.bodyBytes } } : {}),
        weight: r.weight ?? 1,
      })),
    }),
    [template, params, readyPath, thresholds, requests],
  );
  const problems = useMemo(() => Object.fromEntries(validateScenario(scenario).map((p) => [p.path, p.message])), [scenario]);
  const generated = useMemo(() => {
    try {
      return generateScenario(scenario);
    } catch {
      return null;
    }
  }, [scenario]);

  const done = async () => {
    await qc.invalidateQueries({ queryKey: trpc.scenario.list.queryKey() });
    router.push('/scenarios');
  };
  const create = useMutation(trpc.scenario.create.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.scenario.update.mutationOptions({ onSuccess: done }));
  const m = initial ? update : create;
  const server = problemsOf(m.error);
  const err = (p: string) => problems[p] ?? server[`scenario.${p}`] ?? null;
  const setParam = (k: string, v: unknown) => setParamsBy({ ...paramsBy, [template]: { ...params, [k]: v } });
  const otherProblems = Object.entries(problems).filter(([p]) => !/^params\.[^.]+$/.test(p) && !p.startsWith('requests.') && !p.startsWith('thresholds.') && p !== 'readyPath' && !p.startsWith('params.stages'));

  return (
    <form
      className="grid gap-6 lg:grid-cols-[1fr_22rem]"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setSubmitted(true);
        if (Object.keys(problems).length > 0 || !name.trim()) return;
        const parsed = ScenarioSchema.safeParse(scenario);
        if (!parsed.success) return;
        const body = { name: name.trim(), scenario: parsed.data };
        if (initial) update.mutate({ id: initial.id, ...body });
        else create.mutate(body);
      }}
    >
      <div className="space-y-6">
        {m.isError ? <Alert tone="error" title="Could not save the scenario">{messageOf(m.error)}</Alert> : null}
        <Card>
          <CardHeader title="Template" description="The shape of the load. Parameters below change with it." />
          <CardBody className="space-y-4">
            <Field label="Name" error={submitted && !name.trim() ? 'is required' : (server.name ?? null)}>
              {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} placeholder={`${TEMPLATES[template].label} · 50 VUs`} />}
            </Field>
            <Field label="Template" help={TEMPLATES[template].description}>
              {(p) => (
                <Select {...p} value={template} onChange={(e) => setTemplate(e.target.value as TemplateId)}>
                  {TEMPLATE_IDS.map((t) => (
                    <option key={t} value={t}>
                      {TEMPLATES[t].label} ({TEMPLATES[t].model} model)
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
              {Object.entries(params)
                .filter(([, v]) => !Array.isArray(v))
                .map(([k, v]) => (
                  <Field key={k} label={<span>{paramLabel(k)} {paramUnit(k) ? <span className="font-normal text-slate-400">({paramUnit(k)})</span> : null}</span>} error={err(`params.${k}`)}>
                    {(p) => (k.endsWith('Ms') ? <DurationInput {...p} value={typeof v === 'number' ? v : undefined} onValue={(nv) => setParam(k, nv)} /> : <NumberInput {...p} value={typeof v === 'number' ? v : undefined} onValue={(nv) => setParam(k, nv)} />)}
                  </Field>
                ))}
            </div>
            {Array.isArray(params.stages) ? (
              <div>
                <div className="mb-2 flex items-center justify-between">
                  <span className="text-sm font-medium text-slate-800">Stages</span>
                  <Button size="sm" variant="ghost" onClick={() => setParam('stages', [...(params.stages as object[]), { durationMs: 10_000, targetVUs: 10 }])}>
                    <Plus className="size-3.5" /> Add stage
                  </Button>
                </div>
                {err('params.stages') ? <p className="mb-2 text-xs text-red-700">{err('params.stages')}</p> : null}
                <div className="space-y-2">
                  {(params.stages as Array<{ durationMs?: number; targetVUs?: number }>).map((st, i) => (
                    <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-end gap-2">
                      <Field label={`Stage ${i + 1} duration`} error={err(`params.stages.${i}.durationMs`)}>
                        {(p) => <DurationInput {...p} value={st.durationMs} onValue={(v) => setParam('stages', (params.stages as object[]).map((x, j) => (j === i ? { ...x, durationMs: v } : x)))} />}
                      </Field>
                      <Field label="Target VUs" error={err(`params.stages.${i}.targetVUs`)}>
                        {(p) => <NumberInput {...p} value={st.targetVUs} onValue={(v) => setParam('stages', (params.stages as object[]).map((x, j) => (j === i ? { ...x, targetVUs: v } : x)))} />}
                      </Field>
                      <Button variant="danger-ghost" size="sm" aria-label={`Remove stage ${i + 1}`} onClick={() => setParam('stages', (params.stages as object[]).filter((_, j) => j !== i))}>
                        <Trash2 className="size-4" />
                      </Button>
                    </div>
                  ))}
                </div>
              </div>
            ) : null}
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Requests"
            description="Paths on the target; base URLs come from the target at run time. Weights mix several requests."
            actions={
              <Button size="sm" variant="ghost" onClick={() => setRequests([...requests, { method: 'GET', path: '/health', query: [], weight: 1 }])}>
                <Plus className="size-3.5" /> Add request
              </Button>
            }
          />
          <CardBody className="space-y-4">
            {err('requests') ? <p className="text-xs text-red-700">{err('requests')}</p> : null}
            {requests.map((r, i) => {
              const setR = (patch: Partial<Req>) => setRequests(requests.map((x, j) => (j === i ? { ...x, ...patch } : x)));
              return (
                <div key={i} className="rounded-lg border border-slate-200 p-3">
                  <div className="grid gap-3 sm:grid-cols-[7rem_1fr_8rem_6rem_auto] sm:items-end">
                    <Field label="Method">
                      {(p) => (
                        <Select {...p} value={r.method} onChange={(e) => setR({ method: e.target.value })}>
                          {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map((x) => (
                            <option key={x}>{x}</option>
                          ))}
                        </Select>
                      )}
                    </Field>
                    <Field label="Path" error={err(`requests.${i}.path`)}>
                      {(p) => <Input {...p} value={r.path} onChange={(e) => setR({ path: e.target.value })} />}
                    </Field>
                    <Field label="Body (bytes)" error={err(`requests.${i}.body`) ?? err(`requests.${i}.body.sizeBytes`)}>
                      {(p) => <NumberInput {...p} placeholder="none" value={r.bodyBytes} onValue={(v) => setR({ bodyBytes: v })} />}
                    </Field>
                    <Field label="Weight" error={err(`requests.${i}.weight`)}>
                      {(p) => <NumberInput {...p} value={r.weight} onValue={(v) => setR({ weight: v })} />}
                    </Field>
                    <Button variant="danger-ghost" size="sm" aria-label={`Remove request ${i + 1}`} disabled={requests.length === 1} onClick={() => setRequests(requests.filter((_, j) => j !== i))}>
                      <Trash2 className="size-4" />
                    </Button>
                  </div>
                  <div className="mt-3 flex flex-wrap items-center gap-2">
                    <span className="text-xs text-slate-500">Query:</span>
                    {r.query.map((q, qi) => (
                      <span key={qi} className="flex items-center gap-1">
                        <Input aria-label="Query name" className="h-8 w-24" value={q.key} onChange={(e) => setR({ query: r.query.map((x, j) => (j === qi ? { ...x, key: e.target.value } : x)) })} />
                        <span className="text-slate-400">=</span>
                        <Input aria-label="Query value" className="h-8 w-24" value={q.value} onChange={(e) => setR({ query: r.query.map((x, j) => (j === qi ? { ...x, value: e.target.value } : x)) })} />
                        <button type="button" aria-label="Remove query parameter" className="rounded p-1 text-slate-400 hover:text-red-600" onClick={() => setR({ query: r.query.filter((_, j) => j !== qi) })}>
                          <Trash2 className="size-3.5" />
                        </button>
                      </span>
                    ))}
                    <Button size="sm" variant="ghost" onClick={() => setR({ query: [...r.query, { key: '', value: '' }] })}>
                      <Plus className="size-3.5" /> param
                    </Button>
                  </div>
                  {Object.entries(problems)
                    .filter(([p]) => p.startsWith(`requests.${i}.query`))
                    .map(([p, msg]) => (
                      <p key={p} className="mt-1 text-xs text-red-700">
                        {p.replace(`requests.${i}.`, '')}: {msg}
                      </p>
                    ))}
                </div>
              );
            })}
            <Field label="Ready path" help="setup() requests this first and fails the run fast if the target does not answer." error={err('readyPath')}>
              {(p) => <Input {...p} value={readyPath} onChange={(e) => setReadyPath(e.target.value)} />}
            </Field>
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Thresholds"
            description="Pass/fail checks k6 evaluates over the whole run, e.g. p(95)<500 on http_req_duration (ms)."
            actions={
              <Button size="sm" variant="ghost" onClick={() => setThresholds([...thresholds, { metric: 'http_req_duration', expr: 'p(95)<500' }])}>
                <Plus className="size-3.5" /> Add threshold
              </Button>
            }
          />
          <CardBody className="space-y-2">
            {thresholds.length === 0 ? <p className="text-sm text-slate-500">No thresholds: every run that completes passes.</p> : null}
            {thresholds.map((t, i) => (
              <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
                <Select aria-label={`Threshold ${i + 1} metric`} value={t.metric} onChange={(e) => setThresholds(thresholds.map((x, j) => (j === i ? { ...x, metric: e.target.value } : x)))}>
                  {THRESHOLD_METRICS.map((mm) => (
                    <option key={mm}>{mm}</option>
                  ))}
                </Select>
                <div>
                  <Input aria-label={`Threshold ${i + 1} expression`} aria-invalid={Boolean(err(`thresholds.${i}.expr`))} value={t.expr} onChange={(e) => setThresholds(thresholds.map((x, j) => (j === i ? { ...x, expr: e.target.value } : x)))} />
                  {err(`thresholds.${i}.expr`) ? <p className="mt-1 text-xs text-red-700">{err(`thresholds.${i}.expr`)}</p> : null}
                </div>
                <Button variant="danger-ghost" size="sm" aria-label={`Remove threshold ${i + 1}`} onClick={() => setThresholds(thresholds.filter((_, j) => j !== i))}>
                  <Trash2 className="size-4" />
                </Button>
              </div>
            ))}
          </CardBody>
        </Card>
        {otherProblems.length > 0 && submitted ? (
          <Alert tone="error" title="Fix these first">
            <ul className="list-disc pl-4">
              {otherProblems.map(([p, msg]) => (
                <li key={p}>
                  {p || 'scenario'}: {msg}
                </li>
              ))}
            </ul>
          </Alert>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => router.back()}>
            Cancel
          </Button>
          <Button type="submit" loading={m.isPending}>
            {initial ? 'Save scenario' : 'Create scenario'}
          </Button>
        </div>
      </div>

      <aside className="space-y-4 lg:sticky lg:top-6 lg:self-start">
        <Card>
          <CardHeader title="Load profile" description={generated ? `${formatDuration(generated.estimatedDurationMs)} · up to ${generated.maxVUs} VUs` : 'Fix the parameters to see the profile'} />
          <CardBody>
            {generated ? <ProfileChart profile={generated.profile} height={180} axes /> : <div className="grid h-[180px] place-items-center text-sm text-slate-400">—</div>}
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Generated k6 script"
            description="Read-only: scripts are generated from templates, no user code runs on workers."
            actions={
              <Button size="sm" variant="secondary" onClick={() => setShowScript(!showScript)} aria-expanded={showScript}>
                {showScript ? 'Hide' : 'Preview'}
              </Button>
            }
          />
          {showScript ? (
            <CardBody>{generated ? <CodeBlock code={generated.script} label="script.js" maxHeight="max-h-[28rem]" /> : <p className={cn('text-sm text-slate-500')}>The scenario is not valid yet.</p>}</CardBody>
          ) : null}
        </Card>
      </aside>
    </form>
  );
}
