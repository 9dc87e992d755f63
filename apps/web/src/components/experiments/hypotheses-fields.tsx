'use client';

import { Plus, X } from 'lucide-react';
import {
  Controller,
  useFieldArray,
  type Control,
  type FieldErrors,
  type FieldPath,
  type UseFormTrigger,
} from 'react-hook-form';
import { HYPOTHESIS_METRIC_KEYS, HYPOTHESIS_METRICS, MAX_HYPOTHESES } from '@poolbench/scenarios';
import type { ExperimentFormInput } from '~/lib/schemas/experiment';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Field, Options, Select } from '~/components/ui/form';
import { NumberField } from '~/components/ui/number-field';

interface Named {
  id: string;
  name: string;
}

type Cell = { poolConfigId: string; scenarioId: string };

const key = (c: Cell | undefined) => (c ? `${c.poolConfigId}|${c.scenarioId}` : '');
const cellOf = (v: string) => {
  const [poolConfigId = '', scenarioId = ''] = v.split('|');
  return { poolConfigId, scenarioId };
};

/**
 * The experiment form's hypotheses: claims about two of the chosen cells, stated before the first
 * run (pre-registration) and decided when the experiment ends (docs/hypotheses.md).
 */
export function HypothesesFields({
  control,
  errors,
  trigger,
  configs,
  scenarios,
}: {
  control: Control<ExperimentFormInput>;
  errors: FieldErrors<ExperimentFormInput>;
  trigger: UseFormTrigger<ExperimentFormInput>;
  configs: Named[];
  scenarios: Named[];
}) {
  const { fields, append, remove } = useFieldArray({ control, name: 'hypotheses' });
  const cells = configs.flatMap((c) =>
    scenarios.map((s) => ({
      value: key({ poolConfigId: c.id, scenarioId: s.id }),
      label: scenarios.length > 1 ? `${c.name} · ${s.name}` : c.name,
    })),
  );
  const canAdd = cells.length >= 2 && fields.length < MAX_HYPOTHESES;
  const err = errors.hypotheses;
  return (
    <Card data-testid="hypotheses-fields">
      <CardHeader
        title="Hypotheses"
        description="Optional. State what you expect before the runs start; each is decided when the experiment ends (holds, does not hold or unresolved) and cannot be changed once the first run started."
      />
      <CardBody className="space-y-4">
        {fields.map((f, i) => {
          const e = err?.[i];
          return (
            <fieldset
              key={f.id}
              className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-2"
              aria-label={`Hypothesis ${i + 1}`}
            >
              <SelectField
                control={control}
                name={`hypotheses.${i}.candidate`}
                label="Candidate"
                error={e?.candidate?.message ?? e?.candidate?.poolConfigId?.message}
                read={(v) => key(v as Cell)}
                write={cellOf}
              >
                <Options items={cells} value={(c) => c.value} label={(c) => c.label} />
              </SelectField>
              <SelectField
                control={control}
                name={`hypotheses.${i}.base`}
                label="Against (base)"
                error={e?.base?.poolConfigId?.message}
                read={(v) => key(v as Cell)}
                write={cellOf}
                // "must be a different cell than base" sits on the candidate: check it again
                after={() => {
                  if (errors.hypotheses?.[i]?.candidate) void trigger(`hypotheses.${i}.candidate`);
                }}
              >
                <Options items={cells} value={(c) => c.value} label={(c) => c.label} />
              </SelectField>
              <SelectField
                control={control}
                name={`hypotheses.${i}.metric`}
                label="Metric"
                error={e?.metric?.message}
              >
                <Options
                  items={HYPOTHESIS_METRIC_KEYS}
                  label={(m) => HYPOTHESIS_METRICS[m].label}
                />
              </SelectField>
              <div className="grid grid-cols-[1fr_7rem] gap-3">
                <SelectField
                  control={control}
                  name={`hypotheses.${i}.expect`}
                  label="Expect"
                  error={e?.expect?.message}
                >
                  <option value="better">better by at least</option>
                  <option value="worse">worse by at least</option>
                  <option value="equivalent">the same within ±</option>
                </SelectField>
                <NumberField
                  label="Band"
                  help="% of the base (points for error rate)"
                  error={e?.band?.message ?? e?.bandUnit?.message}
                  control={control}
                  name={`hypotheses.${i}.band`}
                  min={0}
                />
              </div>
              <div className="sm:col-span-2">
                <Button type="button" variant="ghost" size="sm" onClick={() => remove(i)}>
                  <X className="size-4" /> Remove hypothesis {i + 1}
                </Button>
              </div>
            </fieldset>
          );
        })}
        {err?.message || err?.root?.message ? (
          <p className="text-xs font-medium text-red-700" role="alert">
            {err.message ?? err.root?.message}
          </p>
        ) : null}
        {cells.length < 2 ? (
          <p className="text-sm text-slate-500">
            Choose at least two cells (pool configs × scenarios) to state a hypothesis about them.
          </p>
        ) : null}
        {canAdd ? (
          <Button
            type="button"
            variant="secondary"
            size="sm"
            onClick={() =>
              append({
                base: cellOf(cells[0]!.value),
                candidate: cellOf(cells[1]!.value),
                metric: 'p99Ms',
                expect: 'better',
                band: 5,
              })
            }
          >
            <Plus className="size-4" /> Add a hypothesis
          </Button>
        ) : null}
      </CardBody>
    </Card>
  );
}

/** A select bound to one field of the form; `read` and `write` turn the field's value into the select's and back. */
function SelectField({
  control,
  name,
  label,
  error,
  read = (v) => (v == null ? '' : String(v)),
  write = (v) => v,
  after,
  children,
}: {
  control: Control<ExperimentFormInput>;
  name: FieldPath<ExperimentFormInput>;
  label: string;
  error?: string;
  read?: (value: unknown) => string;
  write?: (value: string) => unknown;
  after?: () => void;
  children: React.ReactNode;
}) {
  return (
    <Field label={label} error={error}>
      {(p) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <Select
              {...p}
              value={read(field.value)}
              onChange={(ev) => {
                field.onChange(write(ev.target.value));
                after?.();
              }}
            >
              {children}
            </Select>
          )}
        />
      )}
    </Field>
  );
}
