import type { z } from 'zod';
import { LIMITS } from '../limits';

/** Adds an issue when a template's total run time exceeds the limit, naming the field to shorten. */
export function checkTotalDuration(
  totalMs: number,
  ctx: z.core.$RefinementCtx<unknown>,
  path: string[],
): void {
  if (totalMs > LIMITS.maxDurationMs) {
    ctx.addIssue({
      code: 'custom',
      path,
      message: `total run time ${Math.round(totalMs / 1000)} s exceeds the limit of ${LIMITS.maxDurationMs / 1000} s (2 h)`,
    });
  }
}
