import { z } from 'zod';
import { hasUrlCredentials } from '@poolbench/contracts/net';

const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * A schedule's comparison and webhook (docs/notifications.md). The stored URL and secret are never
 * sent back, so an empty URL or secret keeps the stored one; `removeWebhook` drops both. Rules
 * that depend on what is stored (a webhook on regressions needs a baseline) are the server's.
 */
export const ScheduleNotifySchema = z.object({
  /** '' = do not compare */
  baselineName: z.string().trim().max(100, 'must be at most 100 characters'),
  notifyOn: z.enum(['regression', 'always']),
  webhookFormat: z.enum(['generic', 'slack']),
  webhookUrl: z
    .string()
    .trim()
    .max(2048, 'must be at most 2048 characters')
    .refine((v) => v === '' || isHttpUrl(v), 'must be an http:// or https:// URL')
    .refine(
      (v) => v === '' || !hasUrlCredentials(v),
      'must not carry user:password@; the secret below signs every request',
    ),
  webhookSecret: z
    .string()
    .max(200, 'must be at most 200 characters')
    .refine(
      (v) => v === '' || v.length >= 16,
      'must be at least 16 characters (or empty to keep the stored one)',
    ),
  removeWebhook: z.boolean(),
  /**
   * When a firing is a suspected regression, add repeats once so each cell has this many, then
   * decide again (docs/outcomes.md); null: decide at once.
   */
  settleUpToRepeats: z
    .number()
    .int('must be a whole number')
    .min(2, 'must be at least 2')
    .max(50, 'must be at most 50 (the most an experiment may repeat)')
    .nullable()
    .default(null),
});
export type ScheduleNotifyInput = z.input<typeof ScheduleNotifySchema>;
