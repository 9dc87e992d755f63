'use client';

import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { Field, NumberInput } from './form';

/**
 * A number field of a react-hook-form form: label, help and error (Field) around a NumberInput
 * the form controls, so an emptied field is `undefined` and the schema names it.
 */
export function NumberField<T extends FieldValues>({
  control,
  name,
  label,
  help,
  error,
  optional,
  className,
  ...input
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any context and output type
  control: Control<T, any, any>;
  name: Path<T>;
  label: React.ReactNode;
  help?: React.ReactNode;
  error?: string | null;
  optional?: boolean;
  className?: string;
  min?: number;
  max?: number;
  placeholder?: string;
}) {
  return (
    <Field label={label} help={help} error={error} optional={optional} className={className}>
      {(p) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <NumberInput
              {...p}
              {...input}
              value={field.value}
              onValue={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
            />
          )}
        />
      )}
    </Field>
  );
}
