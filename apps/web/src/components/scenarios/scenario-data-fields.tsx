'use client';

import { Trash2, Upload } from 'lucide-react';
import { useMemo, useRef } from 'react';
import { Controller, useWatch, type Control } from 'react-hook-form';
import { LIMITS, readData } from '@poolbench/scenarios';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Field, Select, Textarea } from '~/components/ui/form';
import type { DataValues, ScenarioFormValues, ScenarioSave } from './scenario-form-values';

const EMPTY: DataValues = { format: 'csv', content: '', per: 'vu' };

/**
 * The scenario's data: rows of values (per VU or per iteration) whose columns are variables,
 * e.g. a CSV of usernames and passwords for a login step. Stored with the scenario.
 */
export function ScenarioDataFields({
  control,
  err,
}: {
  control: Control<ScenarioFormValues, unknown, ScenarioSave>;
  err: (path: string) => string | null;
}) {
  const data = useWatch({ control, name: 'data' });
  const file = useRef<HTMLInputElement>(null);
  const read = useMemo(
    () => (data?.content ? readData({ format: data.format, content: data.content }) : null),
    [data?.format, data?.content],
  );
  return (
    <Controller
      control={control}
      name="data"
      render={({ field }) => {
        const d = field.value ?? null;
        const set = (patch: Partial<DataValues>) => field.onChange({ ...(d ?? EMPTY), ...patch });
        return (
          <Card>
            <CardHeader
              title="Data"
              description={`Values for {{column}} in requests: a CSV with a header row or a JSON array of objects, at most ${LIMITS.maxDataRows.toLocaleString('en-US')} rows and ${LIMITS.maxDataBytes / 1024} KiB.`}
              actions={
                d ? (
                  <Button
                    size="sm"
                    variant="danger-ghost"
                    aria-label="Remove the data"
                    onClick={() => field.onChange(null)}
                  >
                    <Trash2 className="size-3.5" /> Remove
                  </Button>
                ) : (
                  <Button size="sm" variant="ghost" onClick={() => field.onChange(EMPTY)}>
                    Add data
                  </Button>
                )
              }
            />
            {d ? (
              <CardBody className="space-y-3">
                <div className="grid gap-3 sm:grid-cols-2">
                  <Field label="Format" error={err('data.format')}>
                    {(p) => (
                      <Select
                        {...p}
                        value={d.format}
                        onChange={(e) => set({ format: e.target.value as DataValues['format'] })}
                      >
                        <option value="csv">CSV</option>
                        <option value="json">JSON</option>
                      </Select>
                    )}
                  </Field>
                  <Field label="Rows" error={err('data.per')}>
                    {(p) => (
                      <Select
                        {...p}
                        value={d.per}
                        onChange={(e) => set({ per: e.target.value as DataValues['per'] })}
                      >
                        <option value="vu">one per VU (VU n takes row n)</option>
                        <option value="iteration">one per iteration (in turn)</option>
                      </Select>
                    )}
                  </Field>
                </div>
                <Field
                  label="Content"
                  error={err('data.content')}
                  help={
                    read && typeof read !== 'string'
                      ? `${read.rows.length} row${read.rows.length === 1 ? '' : 's'}; variables: ${read.columns.map((c) => `{{${c}}}`).join(', ')}`
                      : undefined
                  }
                >
                  {(p) => (
                    <Textarea
                      {...p}
                      rows={5}
                      className="font-mono text-xs"
                      placeholder={'username,password\nuser0001,pw-user0001'}
                      value={d.content}
                      onChange={(e) => set({ content: e.target.value })}
                    />
                  )}
                </Field>
                {read && typeof read === 'string' && !err('data.content') ? (
                  <p className="text-xs text-red-700" role="alert">
                    {read}
                  </p>
                ) : null}
                <input
                  ref={file}
                  type="file"
                  accept=".csv,.json,text/csv,application/json"
                  className="sr-only"
                  aria-label="Data file"
                  onChange={(e) => {
                    const f = e.target.files?.[0];
                    if (!f) return;
                    void f
                      .text()
                      .then((content) =>
                        set({ content, format: f.name.endsWith('.json') ? 'json' : 'csv' }),
                      );
                    e.target.value = '';
                  }}
                />
                <Button size="sm" variant="secondary" onClick={() => file.current?.click()}>
                  <Upload className="size-3.5" /> Upload a file
                </Button>
              </CardBody>
            ) : null}
          </Card>
        );
      }}
    />
  );
}
