/** RFC 4180 field quoting. */
function field(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'bigint' ? v.toString() : typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}
