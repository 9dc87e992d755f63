'use client';

import { cn } from '~/lib/cn';

/** A checkbox grid of pool configs or scenarios, with its count and its field error. */
export function Picker({
  legend,
  items,
  selected,
  onChange,
  error,
  empty,
}: {
  legend: string;
  items: Array<{ id: string; name: string; hint?: string }>;
  selected: string[];
  onChange: (ids: string[]) => void;
  error?: string | null;
  empty: React.ReactNode;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-800">
        {legend} <span className="font-normal text-slate-500">({selected.length} selected)</span>
      </legend>
      {items.length === 0 ? <div className="text-sm text-slate-500">{empty}</div> : null}
      <div className="grid max-h-72 gap-1.5 overflow-y-auto pr-1 sm:grid-cols-2">
        {items.map((it) => {
          const on = selected.includes(it.id);
          return (
            <label
              key={it.id}
              className={cn(
                'flex cursor-pointer items-start gap-2.5 rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                on ? 'border-brand-400 bg-brand-50/60' : 'border-slate-200 hover:border-slate-300',
              )}
            >
              <input
                type="checkbox"
                className="mt-0.5 accent-brand-600"
                checked={on}
                onChange={(e) =>
                  onChange(
                    e.target.checked ? [...selected, it.id] : selected.filter((x) => x !== it.id),
                  )
                }
              />
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-800">{it.name}</span>
                {it.hint ? (
                  <span className="block truncate text-xs text-slate-500">{it.hint}</span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p className="mt-1 text-xs font-medium text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
