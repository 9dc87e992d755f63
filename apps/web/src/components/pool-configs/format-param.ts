import { formatDuration } from '~/lib/format';

export function formatParam(unit: string | undefined, v: unknown): string {
  if (typeof v !== 'number') return String(v ?? '—');
  if (unit === 'ms') return formatDuration(v);
  return v.toLocaleString('en-US');
}
