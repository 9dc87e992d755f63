import { Field, Select } from './form';

const inDays = (d: number) =>
  d === 365 ? 'in 1 year' : `in ${d.toLocaleString('en-US')} ${d === 1 ? 'day' : 'days'}`;

/**
 * How long something made now stays valid (a share link, an API token): one of `choices` days,
 * or never. The value is the days, null for never.
 */
export function ExpiresField({
  choices,
  value,
  onChange,
  error,
}: {
  choices: readonly number[];
  value: number | null;
  onChange: (days: number | null) => void;
  error?: string | null;
}) {
  return (
    <Field label="Expires" error={error}>
      {(p) => (
        <Select
          {...p}
          value={value === null ? 'never' : String(value)}
          onChange={(e) => onChange(e.target.value === 'never' ? null : Number(e.target.value))}
        >
          {choices.map((d) => (
            <option key={d} value={String(d)}>
              {inDays(d)}
            </option>
          ))}
          <option value="never">never</option>
        </Select>
      )}
    </Field>
  );
}
