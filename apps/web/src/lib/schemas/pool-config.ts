import { z } from 'zod';
import { PoolConfigSchema } from '@poolbench/scenarios';

/** What poolConfig.create and poolConfig.update take besides ids (the form checks the same before sending). */
export const PoolConfigSaveSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters'),
  config: PoolConfigSchema,
});
