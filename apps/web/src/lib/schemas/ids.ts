import { z } from 'zod';

/** Ids are cuid-like strings; anything else is rejected before it reaches a query. */
export const IdSchema = z
  .string()
  .min(1, 'is required')
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an id');
export const ByIdSchema = z.object({ id: IdSchema });
