'use client';

import { Plus } from 'lucide-react';
import { Button } from '~/components/ui/button';
import { RemoveRowButton } from '~/components/ui/remove-row-button';
import { Input } from '~/components/ui/form';

export type KeyValue = { key: string; value: string };

/** Name = value rows (query parameters, headers), edited in place. */
export function KeyValueRows({
  label,
  rows,
  onChange,
  keyLabel,
  valueLabel,
  addLabel,
  addAriaLabel,
  error,
}: {
  label: string;
  rows: KeyValue[];
  onChange: (rows: KeyValue[]) => void;
  keyLabel: string;
  valueLabel: string;
  addLabel: string;
  /** the add button's accessible name, when its visible label is not enough (several rows) */
  addAriaLabel?: string;
  error?: string | null;
}) {
  const set = (i: number, patch: Partial<KeyValue>) =>
    onChange(rows.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs text-slate-500">{label}:</span>
        {rows.map((q, i) => (
          <span key={i} className="flex items-center gap-1">
            <Input
              aria-label={keyLabel}
              className="h-8 w-36"
              value={q.key}
              onChange={(e) => set(i, { key: e.target.value })}
            />
            <span className="text-slate-500">=</span>
            <Input
              aria-label={valueLabel}
              className="h-8 w-44"
              value={q.value}
              onChange={(e) => set(i, { value: e.target.value })}
            />
            <RemoveRowButton
              label={`Remove ${keyLabel.toLowerCase()}`}
              onClick={() => onChange(rows.filter((_, j) => j !== i))}
            />
          </span>
        ))}
        <Button
          size="sm"
          variant="ghost"
          aria-label={addAriaLabel}
          onClick={() => onChange([...rows, { key: '', value: '' }])}
        >
          <Plus className="size-3.5" /> {addLabel}
        </Button>
      </div>
      {error ? (
        <p className="mt-1 text-xs text-red-700" role="alert">
          {label.toLowerCase()}: {error}
        </p>
      ) : null}
    </div>
  );
}
