import { z } from 'zod';
import { PoolEnvironmentColumnSchema, PoolParamsSchema } from '@poolbench/db';

/**
 * Response schemas of the poolConfig procedures (documenso's `.types.ts` pattern): the client's
 * types come from here, and tRPC checks every answer against them.
 */
export const PoolConfigViewSchema = z.object({
  id: z.string(),
  targetId: z.string(),
  name: z.string(),
  strategy: z.string(),
  params: PoolParamsSchema,
  instanceCount: z.number().int(),
  /** overrides of the managed target's environment; null when the config has none */
  environment: PoolEnvironmentColumnSchema.nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type PoolConfigView = z.infer<typeof PoolConfigViewSchema>;

export const PoolConfigListSchema = z.array(PoolConfigViewSchema);
export const ArchivedSchema = z.void();
