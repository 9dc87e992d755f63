'use client';

import { Crop } from 'lucide-react';
import { useState } from 'react';
import { Button } from '~/components/ui/button';
import { TextField } from '~/components/ui/text-field';

export type TimeWindow = { from: number; to: number };

/** `from=10&to=60` in a URL, or null when absent or not a valid window. */
export function windowFromParams(params: URLSearchParams): TimeWindow | null {
  const from = params.get('from');
  const to = params.get('to');
  if (from === null || to === null || !/^\d+$/.test(from) || !/^\d+$/.test(to)) return null;
  const w = { from: Number(from), to: Number(to) };
  return w.to > w.from ? w : null;
}

/** What a user typed, checked; errors name the field and the reason. */
export function checkWindow(
  fromText: string,
  toText: string,
  durationSeconds: number,
): { window: TimeWindow } | { errors: { from?: string; to?: string } } {
  const errors: { from?: string; to?: string } = {};
  const from = Number(fromText);
  const to = Number(toText);
  if (fromText.trim() === '' || !Number.isInteger(from) || from < 0)
    errors.from = 'From must be a whole number of seconds, 0 or more';
  if (toText.trim() === '' || !Number.isInteger(to) || to < 1)
    errors.to = 'To must be a whole number of seconds, 1 or more';
  else if (!errors.from && to <= from) errors.to = `To must be after From (${from} s)`;
  else if (!errors.from && durationSeconds > 0 && from >= durationSeconds)
    errors.from = `From must be before the end of the runs (${durationSeconds} s)`;
  return errors.from || errors.to ? { errors } : { window: { from, to } };
}

/**
 * Restricts the whole comparison (the statistics, all-requests percentiles and charts) to seconds
 * [from, to) of every run: the cold start alone, or the steady state without the warm-up.
 */
export function WindowPicker({
  window,
  durationSeconds,
  onChange,
}: {
  window: TimeWindow | null;
  durationSeconds: number;
  onChange: (w: TimeWindow | null) => void;
}) {
  const [from, setFrom] = useState(String(window?.from ?? 0));
  const [to, setTo] = useState(String(window?.to ?? durationSeconds));
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});
  const apply = (f: string, t: string) => {
    const r = checkWindow(f, t, durationSeconds);
    if ('errors' in r) return setErrors(r.errors);
    setErrors({});
    onChange(r.window);
  };
  const preset = (f: number, t: number) => {
    setFrom(String(f));
    setTo(String(t));
    apply(String(f), String(t));
  };
  const edge = Math.min(10, Math.max(1, Math.floor(durationSeconds / 3)));
  return (
    <form
      className="mb-4 flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm"
      data-testid="window-picker"
      onSubmit={(e) => {
        e.preventDefault();
        apply(from, to);
      }}
    >
      <div className="mr-2 self-center text-sm">
        <div className="flex items-center gap-1.5 font-medium text-slate-800">
          <Crop className="size-4 text-slate-500" aria-hidden /> Time window
        </div>
        <div className="text-xs text-slate-500" data-testid="window-state">
          {window
            ? `Seconds ${window.from}–${window.to} of every run: statistics, percentiles and charts`
            : `Whole runs (${durationSeconds} s)`}
        </div>
      </div>
      <TextField
        label="From (s)"
        error={errors.from}
        className="w-32"
        value={from}
        onValue={setFrom}
        inputMode="numeric"
        name="from"
      />
      <TextField
        label="To (s)"
        error={errors.to}
        className="w-32"
        value={to}
        onValue={setTo}
        inputMode="numeric"
        name="to"
      />
      <Button type="submit" variant="secondary">
        Apply
      </Button>
      {durationSeconds > 2 * edge ? (
        <>
          <Button variant="ghost" onClick={() => preset(0, edge)}>
            First {edge} s
          </Button>
          <Button variant="ghost" onClick={() => preset(edge, durationSeconds)}>
            After {edge} s
          </Button>
        </>
      ) : null}
      {window ? (
        <Button
          variant="ghost"
          onClick={() => {
            setFrom('0');
            setTo(String(durationSeconds));
            setErrors({});
            onChange(null);
          }}
        >
          Whole runs
        </Button>
      ) : null}
    </form>
  );
}
