'use client';

import { Plus, Trash2 } from 'lucide-react';
import { Button } from '~/components/ui/button';
import { LoadingBlock } from '~/components/ui/feedback';
import { Field, Input } from '~/components/ui/form';
import { TextField } from '~/components/ui/text-field';

/**
 * The form that adds an address rule: the address (with what it would reach as `help`, before it
 * is saved), its note and the submit button; `children` add a row under them.
 */
export function AddressRuleForm({
  label,
  help,
  error,
  value,
  onValue,
  placeholder,
  note,
  onNote,
  notePlaceholder,
  submit,
  saving,
  onSubmit,
  children,
}: {
  label: string;
  help: string | undefined;
  error: string | null | undefined;
  value: string;
  onValue: (value: string) => void;
  placeholder: string;
  note: string;
  onNote: (note: string) => void;
  notePlaceholder: string;
  submit: string;
  saving: boolean;
  onSubmit: () => void;
  children?: React.ReactNode;
}) {
  return (
    <form
      className="grid items-start gap-3 sm:grid-cols-[1fr_1fr_auto]"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <Field label={label} help={help} error={error}>
        {(f) => (
          <Input
            {...f}
            value={value}
            onChange={(e) => onValue(e.target.value)}
            placeholder={placeholder}
          />
        )}
      </Field>
      <TextField
        label="Note"
        optional
        value={note}
        onValue={onNote}
        placeholder={notePlaceholder}
      />
      <Button type="submit" loading={saving} className="sm:mt-6">
        <Plus className="size-4" /> {submit}
      </Button>
      {children}
    </form>
  );
}

export interface AddressRule {
  id: string;
  /** the pattern or range as saved */
  address: string;
  /** what it reaches, in words */
  holds: string;
  note: string | null;
  /** a warning under the rule, e.g. the part no opened range lets it reach */
  warning?: string | null;
}

/**
 * The saved address rules with what each reaches, its note and a remove button (`remove` is
 * left out for those who may not change them); `empty` while there are none.
 */
export function AddressRuleList({
  rules,
  pending,
  empty,
  remove,
}: {
  rules: readonly AddressRule[] | undefined;
  pending: boolean;
  empty: React.ReactNode;
  remove?: { verb: string; onRemove: (id: string) => void };
}) {
  if (pending) return <LoadingBlock rows={2} />;
  if (!rules || rules.length === 0)
    return rules ? <p className="text-sm text-slate-500">{empty}</p> : null;
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
      {rules.map((r) => (
        <li key={r.id} className="flex items-center justify-between px-3 py-2 text-sm">
          <span>
            <code className="font-mono text-slate-800">{r.address}</code>
            <span className="ml-2 text-xs text-slate-600">— {r.holds}</span>
            {r.note ? <span className="ml-2 text-xs text-slate-500">{r.note}</span> : null}
            {r.warning ? (
              <span className="mt-1 block text-xs text-amber-800">{r.warning}</span>
            ) : null}
          </span>
          {remove ? (
            <Button
              size="sm"
              variant="danger-ghost"
              aria-label={`${remove.verb} ${r.address}`}
              onClick={() => remove.onRemove(r.id)}
            >
              <Trash2 className="size-3.5" />
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
