'use client';

import { ArrowUp, Plus } from 'lucide-react';
import {
  Controller,
  useFieldArray,
  useWatch,
  type Control,
  type UseFormRegister,
} from 'react-hook-form';
import { HTTP_METHODS } from '@poolbench/scenarios';
import { Button } from '~/components/ui/button';
import { RemoveRowButton } from '~/components/ui/remove-row-button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Checkbox, Field, Input, Options, Select, Textarea } from '~/components/ui/form';
import { NumberField } from '~/components/ui/number-field';
import { DurationInput } from '~/components/ui/duration-input';
import { KeyValueRows } from './key-value-rows';
import { CheckRows, ExtractRows } from './scenario-step-fields';
import type { ScenarioFormValues, ScenarioSave } from './scenario-form-values';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The scenario editor's requests (a field array of its form) and the ready path. As a weighted
 * mix, every iteration sends one request picked by weight; as a flow, every iteration sends them
 * all in order as steps, each able to use what earlier steps took from their responses.
 */
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
  const flow = useWatch({ control, name: 'flow' }) === true;
  const methods = useWatch({ control, name: 'requests' }).map((r) => r.method);
  const noun = flow ? 'step' : 'request';
  return (
    <Card>
      <CardHeader
        title={flow ? 'Steps' : 'Requests'}
        description={
          flow
            ? 'Every iteration sends these in order; a step may use {{name}} values that earlier steps took from their responses, or columns of the data below. A flow stops at its first failed step.'
            : 'Paths on the target; base URLs come from the target at run time. Weights mix several requests.'
        }
        actions={
          <Button
            size="sm"
            variant="ghost"
            onClick={() =>
              requests.append({ method: 'GET', path: '/health', query: [], weight: 1 })
            }
          >
            <Plus className="size-3.5" /> Add {noun}
          </Button>
        }
      />
      <CardBody className="space-y-4">
        <Controller
          control={control}
          name="flow"
          render={({ field }) => (
            <Checkbox
              label="Run the requests in order as a flow"
              description="For log in, then use the token: steps, values taken from responses, think time between steps."
              checked={field.value === true}
              onChange={(e) => field.onChange(e.target.checked)}
            />
          )}
        />
        {err('requests') ? <p className="text-xs text-red-700">{err('requests')}</p> : null}
        {requests.fields.map((r, i) => (
          <div key={r.id} className="space-y-3 rounded-lg border border-slate-200 p-3">
            <div
              className={
                flow
                  ? 'grid gap-3 sm:grid-cols-[7rem_1fr_8rem_auto_auto] sm:items-end'
                  : 'grid gap-3 sm:grid-cols-[7rem_1fr_8rem_6rem_auto] sm:items-end'
              }
            >
              <Field label={flow ? `Step ${i + 1} method` : 'Method'}>
                {(p) => (
                  <Select {...p} {...register(`requests.${i}.method`)}>
                    <Options items={HTTP_METHODS} />
                  </Select>
                )}
              </Field>
              <Field label="Path" error={err(`requests.${i}.path`)}>
                {(p) => <Input {...p} {...register(`requests.${i}.path`)} />}
              </Field>
              <NumberField
                label="Body (bytes)"
                error={err(`requests.${i}.bodyBytes`)}
                control={control}
                name={`requests.${i}.bodyBytes`}
                placeholder="none"
              />
              {flow ? (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Move step ${i + 1} up`}
                  disabled={i === 0}
                  onClick={() => requests.move(i, i - 1)}
                >
                  <ArrowUp className="size-4" />
                </Button>
              ) : (
                <NumberField
                  label="Weight"
                  error={err(`requests.${i}.weight`)}
                  control={control}
                  name={`requests.${i}.weight`}
                />
              )}
              <RemoveRowButton
                label={`Remove ${noun} ${i + 1}`}
                disabled={requests.fields.length === 1}
                onClick={() => requests.remove(i)}
              />
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <Field
                label="Name"
                optional
                help="Its tag in k6 and in the results; default METHOD path."
                error={err(`requests.${i}.name`)}
              >
                {(p) => <Input {...p} {...register(`requests.${i}.name`)} />}
              </Field>
              {flow ? (
                <Field
                  label="Think time after this step"
                  optional
                  error={err(`requests.${i}.thinkTimeMs`)}
                >
                  {(p) => (
                    <Controller
                      control={control}
                      name={`requests.${i}.thinkTimeMs`}
                      render={({ field }) => (
                        <DurationInput
                          {...p}
                          value={field.value}
                          onValue={field.onChange}
                          onBlur={field.onBlur}
                        />
                      )}
                    />
                  )}
                </Field>
              ) : null}
            </div>
            <Controller
              control={control}
              name={`requests.${i}.query`}
              render={({ field }) => (
                <KeyValueRows
                  label="Query"
                  rows={field.value}
                  onChange={field.onChange}
                  keyLabel="Query name"
                  valueLabel="Query value"
                  addLabel="param"
                  error={err(`requests.${i}.query`)}
                />
              )}
            />
            <Controller
              control={control}
              name={`requests.${i}.headers`}
              render={({ field }) => (
                <KeyValueRows
                  label="Headers"
                  rows={field.value ?? []}
                  onChange={field.onChange}
                  keyLabel={`${flow ? 'Step' : 'Request'} ${i + 1} header name`}
                  valueLabel={`${flow ? 'Step' : 'Request'} ${i + 1} header value`}
                  addLabel="header"
                  addAriaLabel={`Add a header to ${noun} ${i + 1}`}
                  error={err(`requests.${i}.headers`)}
                />
              )}
            />
            {WITH_BODY.has(methods[i] ?? 'GET') ? (
              <Field
                label="JSON body"
                optional
                help="Sent as application/json; {{name}} inside strings is filled per iteration."
                error={err(`requests.${i}.jsonBody`)}
              >
                {(p) => (
                  <Textarea
                    {...p}
                    rows={3}
                    className="font-mono text-xs"
                    placeholder={'{"username": "{{username}}"}'}
                    {...register(`requests.${i}.jsonBody`)}
                  />
                )}
              </Field>
            ) : null}
            {flow ? (
              <Controller
                control={control}
                name={`requests.${i}.extract`}
                render={({ field }) => (
                  <ExtractRows
                    step={i}
                    rows={field.value ?? []}
                    onChange={field.onChange}
                    err={err}
                  />
                )}
              />
            ) : null}
            <Controller
              control={control}
              name={`requests.${i}.checks`}
              render={({ field }) => (
                <CheckRows step={i} rows={field.value ?? []} onChange={field.onChange} err={err} />
              )}
            />
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
