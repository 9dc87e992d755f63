import { z } from 'zod';
import { RequestDefaultsColumnSchema, TargetKind, TargetManagedSchema } from '@poolbench/db';

/**
 * Response schemas of the target procedures (documenso's `.types.ts` pattern). A target as
 * clients see it: secret values never leave the server, only their names (TARGET_SELECT).
 */
export const TargetViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(TargetKind),
  baseUrls: z.array(z.string()),
  /** managed targets only: program, data-set flags and environment */
  managed: TargetManagedSchema.nullable(),
  requestDefaults: RequestDefaultsColumnSchema,
  secretHeaderNames: z.array(z.string()),
  metricsUrl: z.string().nullable(),
  applyHookUrl: z.string().nullable(),
  readinessPath: z.string().nullable(),
  hasMonitorDsn: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export const TargetListSchema = z.array(
  TargetViewSchema.extend({ poolConfigCount: z.number().int(), runCount: z.number().int() }),
);

export const ConnectionTestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('managed'), message: z.string() }),
  z.object({
    kind: z.literal('url'),
    url: z.string(),
    ok: z.boolean(),
    status: z.number().int().nullable(),
    latencyMs: z.number(),
    headers: z.array(z.tuple([z.string(), z.string()])),
    error: z.string().nullable(),
    note: z.string(),
  }),
]);

export const TargetArchivedSchema = z.void();
