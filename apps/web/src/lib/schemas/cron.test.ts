import { describe, expect, it } from 'vitest';
import { previewCron } from './cron';

const NOW = new Date('2026-11-23T12:00:00Z');

describe('previewCron says what is wrong in words, under the right field', () => {
  it('names the field and its range instead of the library text', () => {
    expect(previewCron('61 3 * * *', 'UTC', 5, NOW)).toMatchObject({
      ok: false,
      field: 'cron',
      error: 'the minute field allows 0–59, not 61',
    });
    expect(previewCron('0 25 * * *', 'UTC', 5, NOW).error).toBe(
      'the hour field allows 0–23, not 25',
    );
    expect(previewCron('0 3 * 13 *', 'UTC', 5, NOW).error).toBe(
      'the month field allows 1–12, not 13',
    );
    expect(previewCron('0 3 * * 5-1', 'UTC', 5, NOW).error).toContain('runs backwards');
    expect(previewCron('*/0 3 * * *', 'UTC', 5, NOW).error).toContain(
      'a step must be a whole number of at least 1',
    );
    expect(previewCron('x 3 * * *', 'UTC', 5, NOW).error).toContain(
      'the minute field has "x", which cron cannot read',
    );
    expect(previewCron('0 3 * *', 'UTC', 5, NOW).error).toContain('use five fields');
    for (const c of ['61 3 * * *', '0 25 * * *'])
      expect(previewCron(c, 'UTC', 5, NOW).error).not.toContain('Constraint error');
  });

  it('an unknown time zone is the time zone field’s problem, not the cron’s', () => {
    expect(previewCron('0 3 * * *', 'Mars/Olympus', 5, NOW)).toMatchObject({
      ok: false,
      field: 'timezone',
      error: expect.stringContaining('unknown time zone "Mars/Olympus"'),
    });
  });

  it('a valid cron gives its description and the next fire times', () => {
    const p = previewCron('0 3 * * 1-5', 'UTC', 3, NOW);
    expect(p).toMatchObject({
      ok: true,
      field: null,
      description: 'At 03:00, Monday through Friday (UTC)',
    });
    expect(p.next).toEqual([
      '2026-11-24T03:00:00.000Z',
      '2026-11-25T03:00:00.000Z',
      '2026-11-26T03:00:00.000Z',
    ]);
    expect(previewCron('0 9 * JAN MON', 'Europe/Berlin', 1, NOW).ok).toBe(true);
  });
});
