'use client';

import { Field, Input } from './form';

/**
 * A text field held in the component's state: label, help and error (Field) around an Input whose
 * text goes to `onValue`. Other input attributes (type, autoComplete, placeholder …) pass on.
 */
export function TextField({
  label,
  help,
  error,
  optional,
  className,
  value,
  onValue,
  ...input
}: Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id'> & {
  label: React.ReactNode;
  help?: React.ReactNode;
  error?: string | null;
  optional?: boolean;
  value: string;
  onValue: (text: string) => void;
}) {
  return (
    <Field label={label} help={help} error={error} optional={optional} className={className}>
      {(p) => <Input {...p} {...input} value={value} onChange={(e) => onValue(e.target.value)} />}
    </Field>
  );
}
