import type { ParsedTarget, Prisma } from '@poolbench/db';

/** Columns a client may see: secret values never leave the server, only their names. */
export const TARGET_SELECT = {
  id: true,
  name: true,
  kind: true,
  baseUrls: true,
  managed: true,
  requestDefaults: true,
  secretHeaderNames: true,
  metricsUrl: true,
  applyHookUrl: true,
  readinessPath: true,
  hasMonitorDsn: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.TargetSelect;

/** A target as clients see it, its JSON columns parsed (parseTarget). */
export type TargetView = ParsedTarget<Prisma.TargetGetPayload<{ select: typeof TARGET_SELECT }>>;
