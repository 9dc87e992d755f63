'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import {
  generateScenario,
  INSIGHT_THRESHOLD_EXPR,
  INSIGHT_THRESHOLD_METRICS,
  isInsightMetric,
  THRESHOLD_METRICS,
  TEMPLATES,
  TEMPLATE_IDS,
  type TemplateId,
} from '@poolbench/scenarios';
import { useTRPC } from '~/lib/trpc/react';
import { useServerErrors } from '~/lib/forms/server-errors';
import { fieldError } from '~/lib/forms/field-error';
import { formatDuration } from '~/lib/format';
import { cn } from '~/lib/cn';
import { Button } from '~/components/ui/button';
import { RemoveRowButton } from '~/components/ui/remove-row-button';
import { FormActions } from '~/components/ui/form-actions';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { CodeBlock } from '~/components/ui/code-block';
import { Alert } from '~/components/ui/feedback';
import { ErrorAlert } from '~/components/ui/query-state';
import { Field, Input, NumberInput, Options, Select } from '~/components/ui/form';
import { DurationInput } from '~/components/ui/duration-input';
import { ProfileChart } from './profile-chart';
import { TEMPLATE_DEFAULTS, paramLabel, paramUnit } from './template-defaults';
import { ScenarioRequestFields } from './scenario-request-fields';
import { ScenarioDataFields } from './scenario-data-fields';
import {
  scenarioField,
  scenarioResolver,
  seedOf,
  toScenario,
  type ScenarioFormValues,
  type ScenarioSave,
} from './scenario-form-values';

export interface ScenarioInitial {
  id: string;
  name: string;
  scenario: Record<string, unknown>;
}

type Stage = { durationMs?: number; targetVUs?: number };

export function ScenarioEditor({
  initial,
  defaultTemplate,
  defaultRequest,
}: {
  initial?: ScenarioInitial;
  defaultTemplate?: TemplateId;
  defaultRequest?: { method: string; path: string };
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const s0 = seedOf(initial?.scenario);
  const firstTemplate = s0?.template ?? defaultTemplate ?? 'cold-start-burst';
  const form = useForm<ScenarioFormValues, unknown, ScenarioSave>({
    // The server's ScenarioSaveSchema; problems show under their field while typing, as before.
    resolver: scenarioResolver,
    mode: 'onChange',
    defaultValues: {
      name: initial?.name ?? '',
      template: firstTemplate,
      params: s0?.params ?? TEMPLATE_DEFAULTS[firstTemplate],
      requests: s0
        ? s0.requests
        : [
            {
              method: defaultRequest?.method ?? 'GET',
              path: defaultRequest?.path ?? '/work',
              query: defaultRequest ? [] : [{ key: 'ms', value: '5' }],
              weight: 1,
            },
          ],
      thresholds: s0?.thresholds ?? [{ metric: 'http_req_failed', expr: 'rate<0.01' }],
      readyPath: s0?.readyPath ?? '/ready',
      flow: s0?.flow ?? false,
      data: s0?.data ?? null,
    },
  });
  const { control, register, setValue, getValues, formState } = form;
  const errors = formState.errors;
  const err = (path: string) => fieldError(errors, path);
  // the params of each template as last edited, so switching back and forth loses nothing
  const paramsBy = useRef<Record<string, Record<string, unknown>>>({});
  const [showScript, setShowScript] = useState(false);
  const values = form.watch();
  const { template, params } = values;
  const thresholds = useFieldArray({ control, name: 'thresholds' });
  // data and the flow switch decide which variables the steps may use: once the form was
  // submitted, a change to either re-checks every field, so no stale message stays on a step
  const variablesKey = JSON.stringify([values.flow ?? false, values.data ?? null]);
  const { isSubmitted } = formState;
  useEffect(() => {
    if (isSubmitted) void form.trigger();
  }, [variablesKey, isSubmitted, form]);

  // the form keeps nested values in place, so what changed is judged by content
  const valuesKey = JSON.stringify(values);
  const scenario = useMemo(
    () => toScenario(JSON.parse(valuesKey) as ScenarioFormValues),
    [valuesKey],
  );
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
  useServerErrors(m.error, form.setError, scenarioField);
  const stages = Array.isArray(params.stages) ? (params.stages as Stage[]) : null;
  const setStages = (next: Stage[]) =>
    setValue('params.stages', next, { shouldValidate: true, shouldDirty: true });
  const switchTemplate = (t: TemplateId) => {
    paramsBy.current[template] = getValues('params');
    setValue('template', t);
    setValue('params', paramsBy.current[t] ?? TEMPLATE_DEFAULTS[t], {
      shouldValidate: formState.isSubmitted,
    });
  };
  // `valid` is ScenarioSaveSchema's output: exactly what the server parses
  const onSubmit = form.handleSubmit((valid) =>
    initial ? update.mutate({ id: initial.id, ...valid }) : create.mutate(valid),
  );

  return (
    <form
      className="grid gap-6 lg:grid-cols-[1fr_22rem]"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
    >
      <div className="space-y-6">
        <ErrorAlert error={m.error} title="Could not save the scenario" />
        <Card>
          <CardHeader
            title="Template"
            description="The shape of the load. Parameters below change with it."
          />
          <CardBody className="space-y-4">
            <Field label="Name" error={err('name')}>
              {(p) => (
                <Input
                  {...p}
                  {...register('name')}
                  placeholder={`${TEMPLATES[template].label} · 50 VUs`}
                />
              )}
            </Field>
            <Field label="Template" help={TEMPLATES[template].description}>
              {(p) => (
                <Select
                  {...p}
                  value={template}
                  onChange={(e) => switchTemplate(e.target.value as TemplateId)}
                >
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
                .map(([k]) => (
                  <Field
                    key={`${template}.${k}`}
                    label={
                      <span>
                        {paramLabel(k)}{' '}
                        {paramUnit(k) ? (
                          <span className="font-normal text-slate-500">({paramUnit(k)})</span>
                        ) : null}
                      </span>
                    }
                    error={err(`params.${k}`)}
                  >
                    {(p) => (
                      <Controller
                        control={control}
                        name={`params.${k}`}
                        render={({ field }) => {
                          const v = typeof field.value === 'number' ? field.value : undefined;
                          return k.endsWith('Ms') ? (
                            <DurationInput
                              {...p}
                              value={v}
                              onValue={field.onChange}
                              onBlur={field.onBlur}
                            />
                          ) : (
                            <NumberInput
                              {...p}
                              value={v}
                              onValue={field.onChange}
                              onBlur={field.onBlur}
                            />
                          );
                        }}
                      />
                    )}
                  </Field>
                ))}
            </div>
            {stages ? (
              <div>
                <div className="mb-2 flex items-center justify-between">
                  <span className="text-sm font-medium text-slate-800">Stages</span>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setStages([...stages, { durationMs: 10_000, targetVUs: 10 }])}
                  >
                    <Plus className="size-3.5" /> Add stage
                  </Button>
                </div>
                {err('params.stages') ? (
                  <p className="mb-2 text-xs text-red-700">{err('params.stages')}</p>
                ) : null}
                <div className="space-y-2">
                  {stages.map((st, i) => (
                    <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-end gap-2">
                      <Field
                        label={`Stage ${i + 1} duration`}
                        error={err(`params.stages.${i}.durationMs`)}
                      >
                        {(p) => (
                          <DurationInput
                            {...p}
                            value={st.durationMs}
                            onValue={(v) =>
                              setStages(
                                stages.map((x, j) => (j === i ? { ...x, durationMs: v } : x)),
                              )
                            }
                          />
                        )}
                      </Field>
                      <Field label="Target VUs" error={err(`params.stages.${i}.targetVUs`)}>
                        {(p) => (
                          <NumberInput
                            {...p}
                            value={st.targetVUs}
                            onValue={(v) =>
                              setStages(
                                stages.map((x, j) => (j === i ? { ...x, targetVUs: v } : x)),
                              )
                            }
                          />
                        )}
                      </Field>
                      <RemoveRowButton
                        label={`Remove stage ${i + 1}`}
                        onClick={() => setStages(stages.filter((_, j) => j !== i))}
                      />
                    </div>
                  ))}
                </div>
              </div>
            ) : null}
          </CardBody>
        </Card>

        <ScenarioRequestFields control={control} register={register} err={err} />
        <ScenarioDataFields control={control} err={err} />

        <Card>
          <CardHeader
            title="Thresholds"
            description="Pass/fail checks k6 evaluates over the whole run, e.g. p(95)<500 on http_req_duration (ms)."
            actions={
              <Button
                size="sm"
                variant="ghost"
                onClick={() =>
                  thresholds.append({ metric: 'http_req_duration', expr: 'p(95)<500' })
                }
              >
                <Plus className="size-3.5" /> Add threshold
              </Button>
            }
          />
          <CardBody className="space-y-2">
            {thresholds.fields.length === 0 ? (
              <p className="text-sm text-slate-500">
                No thresholds: every run that completes passes.
              </p>
            ) : null}
            {thresholds.fields.map((t, i) => (
              <div key={t.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
                <Select
                  aria-label={`Threshold ${i + 1} metric`}
                  {...register(`thresholds.${i}.metric`, {
                    // an insight threshold has one expression: the run fails when it is found
                    onChange: (e: React.ChangeEvent<HTMLSelectElement>) => {
                      if (isInsightMetric(e.target.value))
                        setValue(`thresholds.${i}.expr`, INSIGHT_THRESHOLD_EXPR, {
                          shouldValidate: true,
                        });
                    },
                  })}
                >
                  <optgroup label="k6 metrics">
                    <Options items={THRESHOLD_METRICS} />
                  </optgroup>
                  <optgroup label="Run insights (fail when found)">
                    <Options items={INSIGHT_THRESHOLD_METRICS} />
                  </optgroup>
                </Select>
                <div>
                  <Input
                    aria-label={`Threshold ${i + 1} expression`}
                    aria-invalid={Boolean(err(`thresholds.${i}.expr`))}
                    {...register(`thresholds.${i}.expr`)}
                  />
                  {err(`thresholds.${i}.expr`) ? (
                    <p className="mt-1 text-xs text-red-700">{err(`thresholds.${i}.expr`)}</p>
                  ) : null}
                </div>
                <RemoveRowButton
                  label={`Remove threshold ${i + 1}`}
                  onClick={() => thresholds.remove(i)}
                />
              </div>
            ))}
          </CardBody>
        </Card>
        {errors.root?.form ? (
          <Alert tone="error" title="Fix this first">
            {errors.root.form.message}
          </Alert>
        ) : null}
        <FormActions>
          <Button type="submit" loading={m.isPending}>
            {initial ? 'Save scenario' : 'Create scenario'}
          </Button>
        </FormActions>
      </div>

      <aside className="space-y-4 lg:sticky lg:top-6 lg:self-start">
        <Card>
          <CardHeader
            title="Load profile"
            description={
              generated
                ? `${formatDuration(generated.estimatedDurationMs)} · up to ${generated.maxVUs} VUs`
                : 'Fix the parameters to see the profile'
            }
          />
          <CardBody>
            {generated ? (
              <ProfileChart profile={generated.profile} height={180} axes />
            ) : (
              <div className="grid h-[180px] place-items-center text-sm text-slate-500">—</div>
            )}
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Generated k6 script"
            description="Read-only: scripts are generated from templates; flows, checks and data arrive as data, so no user code runs on workers."
            actions={
              <Button
                size="sm"
                variant="secondary"
                onClick={() => setShowScript(!showScript)}
                aria-expanded={showScript}
              >
                {showScript ? 'Hide' : 'Preview'}
              </Button>
            }
          />
          {showScript ? (
            <CardBody>
              {generated ? (
                <CodeBlock code={generated.script} label="script.js" maxHeight="max-h-[28rem]" />
              ) : (
                <p className={cn('text-sm text-slate-500')}>The scenario is not valid yet.</p>
              )}
            </CardBody>
          ) : null}
        </Card>
      </aside>
    </form>
  );
}
