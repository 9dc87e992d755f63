/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): a pool
 * config named `=HYPERLINK(...)` must open as text, not run. Tab and CR count too, since some
 * spreadsheets strip them before deciding.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: RFC 4180 quoting (also of `;`), and string cells that a spreadsheet would take as a formula get a
 * leading `'`. Only strings are neutralised: a negative number is data (`-3.5` must stay a number
 * a spreadsheet can sum), and numbers are never user-controlled text.
 */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'bigint') return v.toString();
  let s = v instanceof Date ? v.toISOString() : String(v);
  if (FORMULA_START.test(s)) s = `'${s}`;
  // `;` too: spreadsheets in locales whose list separator is `;` split on it, and the part
  // after one (`a;=1+1`) would start a cell of its own, a formula
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
