import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue';

export interface CronPreview {
  ok: boolean;
  error: string | null;
  description: string | null;
  /** ISO strings, UTC */
  next: string[];
}

/** Human-readable text and the next firings of a 5-field cron in a time zone. */
export function previewCron(cron: string, timezone: string, count = 5, now = new Date()): CronPreview {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return { ok: false, error: 'use five fields: minute hour day-of-month month day-of-week', description: null, next: [] };
  try {
    Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    return { ok: false, error: `unknown time zone "${timezone}"`, description: null, next: [] };
  }
  try {
    const it = CronExpressionParser.parse(cron, { tz: timezone, currentDate: now });
    const next = it.take(count).map((d) => d.toDate().toISOString());
    const description = cronstrue.toString(cron, { use24HourTimeFormat: true, verbose: false });
    return { ok: true, error: null, description: `${description} (${timezone})`, next };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e), description: null, next: [] };
  }
}
