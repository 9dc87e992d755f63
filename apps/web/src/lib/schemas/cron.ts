import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue';

export interface CronPreview {
  ok: boolean;
  error: string | null;
  /** which input the error is about, so forms show it under that field */
  field: 'cron' | 'timezone' | null;
  description: string | null;
  /** ISO strings, UTC */
  next: string[];
}

interface CronField {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const FIELDS: CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day-of-week', min: 0, max: 7, names: DAYS },
];

function valueOf(token: string, f: CronField): number | null {
  if (/^\d+$/.test(token)) return Number(token);
  const i = f.names?.indexOf(token.toUpperCase()) ?? -1;
  return i < 0 ? null : f.name === 'month' ? i + 1 : i;
}

/**
 * The cron library's errors ("Constraint error, got value 61 expected range 0-59") name no field;
 * this checks each field first and says what is wrong in words. null when the field looks fine
 * (the library still has the last word, e.g. on L and # forms).
 */
function fieldProblem(text: string, f: CronField): string | null {
  const how = `use ${f.min}–${f.max}${f.names ? ` or names like ${f.names[1]}` : ''}, a range (1-5), a list (1,15) or a step (*/15)`;
  for (const part of text.split(',')) {
    const [range = '', step, extra] = part.split('/');
    if (extra !== undefined || (step !== undefined && !(/^\d+$/.test(step) && Number(step) >= 1)))
      return `the ${f.name} field has "${part}": a step must be a whole number of at least 1, e.g. */15`;
    if (range === '*' || /[LW#?]/i.test(range)) continue;
    const ends = range.split('-');
    const values = ends.map((e) => valueOf(e, f));
    if (ends.length > 2 || values.some((v) => v === null))
      return `the ${f.name} field has "${part}", which cron cannot read: ${how}`;
    const bad = values.find((v) => v! < f.min || v! > f.max);
    if (bad !== undefined) return `the ${f.name} field allows ${f.min}–${f.max}, not ${bad}`;
    if (values.length === 2 && values[0]! > values[1]!)
      return `the ${f.name} field has the range ${range}, which runs backwards: put the smaller value first`;
  }
  return null;
}

/** Human-readable text and the next firings of a 5-field cron in a time zone; errors in words, with their field. */
export function previewCron(
  cron: string,
  timezone: string,
  count = 5,
  now = new Date(),
): CronPreview {
  const fail = (field: 'cron' | 'timezone', error: string): CronPreview => ({
    ok: false,
    error,
    field,
    description: null,
    next: [],
  });
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5)
    return fail(
      'cron',
      `use five fields: minute hour day-of-month month day-of-week (got ${cron.trim() ? fields.length : 0})`,
    );
  try {
    Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    return fail(
      'timezone',
      `unknown time zone "${timezone}": use an IANA name such as UTC or Europe/Berlin`,
    );
  }
  for (const [i, f] of FIELDS.entries()) {
    const problem = fieldProblem(fields[i]!, f);
    if (problem) return fail('cron', problem);
  }
  try {
    const it = CronExpressionParser.parse(cron, { tz: timezone, currentDate: now });
    const next = it.take(count).map((d) => d.toDate().toISOString());
    const description = cronstrue.toString(cron, { use24HourTimeFormat: true, verbose: false });
    return {
      ok: true,
      error: null,
      field: null,
      description: `${description} (${timezone})`,
      next,
    };
  } catch (e) {
    return fail(
      'cron',
      `cannot be read as a schedule (${e instanceof Error ? e.message : String(e)})`,
    );
  }
}
