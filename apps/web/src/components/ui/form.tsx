import { useId } from 'react';
import { cn } from '~/lib/cn';
import { focusRing } from './button';

const control = cn(
  'block w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400',
  'focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:bg-slate-50 disabled:text-slate-500',
  'aria-[invalid=true]:border-red-500 aria-[invalid=true]:focus:ring-red-500/30',
);

export function Input({ className, ...rest }: React.InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(control, 'h-9', className)} {...rest} />;
}

export function Textarea({
  className,
  ...rest
}: React.TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(control, 'py-2', className)} {...rest} />;
}

export function Select({
  className,
  children,
  ...rest
}: React.SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select className={cn(control, 'h-9 pr-8', className)} {...rest}>
      {children}
    </select>
  );
}

/**
 * A select's options, one per item: `value` and `label` read them from the item; without them the
 * item (a string or number) is both.
 */
export function Options<T>({
  items,
  value = String,
  label = value,
}: {
  items: readonly T[] | undefined;
  value?: (item: T) => string;
  label?: (item: T) => React.ReactNode;
}) {
  return (
    <>
      {items?.map((item) => (
        <option key={value(item)} value={value(item)}>
          {label(item)}
        </option>
      ))}
    </>
  );
}

/** `Options` of items with an id and a name: the id is the value, the name the label. */
export const byIdName = {
  value: (item: { id: string }) => item.id,
  label: (item: { name: string }) => item.name,
};

export function Label({ className, ...rest }: React.LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('block text-sm font-medium text-slate-800', className)} {...rest} />;
}

/**
 * Label + control + help + inline error, wired for screen readers (aria-invalid, aria-describedby).
 * `children` receives the ids to put on the control.
 */
export function Field({
  label,
  help,
  error,
  className,
  children,
  optional,
}: {
  label: React.ReactNode;
  help?: React.ReactNode;
  error?: string | null;
  className?: string;
  optional?: boolean;
  children: (p: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby'?: string;
  }) => React.ReactNode;
}) {
  const id = useId();
  const helpId = `${id}-help`;
  const errId = `${id}-err`;
  const describedBy =
    [error ? errId : null, help ? helpId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>
        {label}
        {optional ? <span className="ml-1 font-normal text-slate-500">(optional)</span> : null}
      </Label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy })}
      {error ? (
        <p id={errId} className="text-xs font-medium text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      {help ? (
        <p id={helpId} className="text-xs text-slate-500">
          {help}
        </p>
      ) : null}
    </div>
  );
}

export function Checkbox({
  label,
  description,
  className,
  ...rest
}: React.InputHTMLAttributes<HTMLInputElement> & {
  label: React.ReactNode;
  description?: React.ReactNode;
}) {
  const id = useId();
  return (
    <div className={cn('flex items-start gap-2.5', className)}>
      <input
        id={id}
        type="checkbox"
        className={cn(
          'mt-0.5 size-4 rounded border-slate-300 text-brand-600 accent-brand-600',
          focusRing,
        )}
        {...rest}
      />
      <div className="text-sm">
        <label htmlFor={id} className="font-medium text-slate-800">
          {label}
        </label>
        {description ? <p className="text-xs text-slate-500">{description}</p> : null}
      </div>
    </div>
  );
}

/** Number input that keeps what the user typed and reports NaN as undefined (zod then says "required"). */
export function NumberInput({
  value,
  onValue,
  ...rest
}: Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  value: number | undefined;
  onValue: (v: number | undefined) => void;
}) {
  return (
    <Input
      type="number"
      inputMode="numeric"
      value={value === undefined || Number.isNaN(value) ? '' : value}
      onChange={(e) => onValue(e.target.value === '' ? undefined : Number(e.target.value))}
      {...rest}
    />
  );
}
