import type { Prisma } from '@poolbench/db';

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

export type TargetView = Prisma.TargetGetPayload<{ select: typeof TARGET_SELECT }>;
