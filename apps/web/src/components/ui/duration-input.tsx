'use client';

import { useState } from 'react';
import { formatDurationInput, parseDurationMs } from '~/lib/parse-duration';
import { Input } from './form';

/**
 * A duration field that takes `30s`, `2m`, `1m30s` or plain milliseconds and hands on milliseconds
 * (NaN for text that is not a duration, so the schema reports the field).
 */
export function DurationInput({
  value,
  onValue,
  ...rest
}: Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  value: number | undefined;
  onValue: (ms: number | undefined) => void;
}) {
  const [text, setText] = useState(() => formatDurationInput(value));
  // A value set from outside (template switch, preset) replaces the text unless it already means
  // it: adjusted while rendering when the value changed, as React advises for state from props.
  const [seen, setSeen] = useState(value);
  if (!Object.is(seen, value)) {
    setSeen(value);
    const mine = parseDurationMs(text);
    if (mine !== value && !(mine === null && Number.isNaN(value)))
      setText(formatDurationInput(value));
  }
  return (
    <Input
      type="text"
      inputMode="text"
      placeholder="e.g. 30s, 2m or 1500 (ms)"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const ms = parseDurationMs(e.target.value);
        onValue(ms === null ? Number.NaN : ms);
      }}
      {...rest}
    />
  );
}
