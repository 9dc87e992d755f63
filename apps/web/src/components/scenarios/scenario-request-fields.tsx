'use client';

import { Plus, Trash2 } from 'lucide-react';
import { Controller, useFieldArray, type Control, type UseFormRegister } from 'react-hook-form';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Field, Input, NumberInput, Select } from '~/components/ui/form';
import type { RequestRow, ScenarioFormValues, ScenarioSave } from './scenario-form-values';

/** The scenario editor's requests (a field array of its form) and the ready path. */
export function ScenarioRequestFields({
  control,
  register,
  err,
}: {
  control: Control<ScenarioFormValues, unknown, ScenarioSave>;
  register: UseFormRegister<ScenarioFormValues>;
  err: (path: string) => string | null;
}) {
  const requests = useFieldArray({ control, name: 'requests' });
  return (
    <Card>
      <CardHeader
        title="Requests"
        description="Paths on the target; base URLs come from the target at run time. Weights mix several requests."
        actions={
          <Button
            size="sm"
            variant="ghost"
            onClick={() =>
              requests.append({ method: 'GET', path: '/health', query: [], weight: 1 })
            }
          >
            <Plus className="size-3.5" /> Add request
          </Button>
        }
      />
      <CardBody className="space-y-4">
        {err('requests') ? <p className="text-xs text-red-700">{err('requests')}</p> : null}
        {requests.fields.map((r, i) => (
          <div key={r.id} className="rounded-lg border border-slate-200 p-3">
            <div className="grid gap-3 sm:grid-cols-[7rem_1fr_8rem_6rem_auto] sm:items-end">
              <Field label="Method">
                {(p) => (
                  <Select {...p} {...register(`requests.${i}.method`)}>
                    {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map((x) => (
                      <option key={x}>{x}</option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Path" error={err(`requests.${i}.path`)}>
                {(p) => <Input {...p} {...register(`requests.${i}.path`)} />}
              </Field>
              <Field label="Body (bytes)" error={err(`requests.${i}.bodyBytes`)}>
                {(p) => (
                  <Controller
                    control={control}
                    name={`requests.${i}.bodyBytes`}
                    render={({ field }) => (
                      <NumberInput
                        {...p}
                        placeholder="none"
                        value={field.value}
                        onValue={field.onChange}
                        onBlur={field.onBlur}
                      />
                    )}
                  />
                )}
              </Field>
              <Field label="Weight" error={err(`requests.${i}.weight`)}>
                {(p) => (
                  <Controller
                    control={control}
                    name={`requests.${i}.weight`}
                    render={({ field }) => (
                      <NumberInput
                        {...p}
                        value={field.value}
                        onValue={field.onChange}
                        onBlur={field.onBlur}
                      />
                    )}
                  />
                )}
              </Field>
              <Button
                variant="danger-ghost"
                size="sm"
                aria-label={`Remove request ${i + 1}`}
                disabled={requests.fields.length === 1}
                onClick={() => requests.remove(i)}
              >
                <Trash2 className="size-4" />
              </Button>
            </div>
            <Controller
              control={control}
              name={`requests.${i}.query`}
              render={({ field }) => {
                const rows: RequestRow['query'] = field.value;
                const set = (next: RequestRow['query']) => field.onChange(next);
                return (
                  <div className="mt-3 flex flex-wrap items-center gap-2">
                    <span className="text-xs text-slate-500">Query:</span>
                    {rows.map((q, qi) => (
                      <span key={qi} className="flex items-center gap-1">
                        <Input
                          aria-label="Query name"
                          className="h-8 w-24"
                          value={q.key}
                          onChange={(e) =>
                            set(rows.map((x, j) => (j === qi ? { ...x, key: e.target.value } : x)))
                          }
                        />
                        <span className="text-slate-500">=</span>
                        <Input
                          aria-label="Query value"
                          className="h-8 w-24"
                          value={q.value}
                          onChange={(e) =>
                            set(
                              rows.map((x, j) => (j === qi ? { ...x, value: e.target.value } : x)),
                            )
                          }
                        />
                        <button
                          type="button"
                          aria-label="Remove query parameter"
                          className="rounded p-1 text-slate-500 hover:text-red-600"
                          onClick={() => set(rows.filter((_, j) => j !== qi))}
                        >
                          <Trash2 className="size-3.5" />
                        </button>
                      </span>
                    ))}
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => set([...rows, { key: '', value: '' }])}
                    >
                      <Plus className="size-3.5" /> param
                    </Button>
                  </div>
                );
              }}
            />
            {err(`requests.${i}.query`) ? (
              <p className="mt-1 text-xs text-red-700">query: {err(`requests.${i}.query`)}</p>
            ) : null}
          </div>
        ))}
        <Field
          label="Ready path"
          help="setup() requests this first and fails the run fast if the target does not answer."
          error={err('readyPath')}
        >
          {(p) => <Input {...p} {...register('readyPath')} />}
        </Field>
      </CardBody>
    </Card>
  );
}
