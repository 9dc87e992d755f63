import { parseRun, type Db, type Prisma, type RunStatus } from '@poolbench/db';

export interface RunFilters {
  targetId?: string | null;
  poolConfigId?: string | null;
  scenarioId?: string | null;
  experimentId?: string | null;
  status?: RunStatus[] | null;
  /** ISO date-times, UTC */
  from?: string | null;
  to?: string | null;
}

/** Newest first, keyset pagination (cursor = last id) so new runs never shift a page. */
export async function listRuns(
  db: Db,
  teamId: string,
  input: RunFilters & { cursor?: string | null; limit: number },
) {
  const where: Prisma.RunWhereInput = {
    teamId,
    ...(input.targetId ? { targetId: input.targetId } : {}),
    ...(input.poolConfigId ? { poolConfigId: input.poolConfigId } : {}),
    ...(input.scenarioId ? { scenarioId: input.scenarioId } : {}),
    ...(input.experimentId ? { experimentId: input.experimentId } : {}),
    ...(input.status && input.status.length > 0 ? { status: { in: input.status } } : {}),
    ...(input.from || input.to
      ? {
          createdAt: {
            ...(input.from ? { gte: new Date(input.from) } : {}),
            ...(input.to ? { lt: new Date(input.to) } : {}),
          },
        }
      : {}),
  };
  const rows = await db.run.findMany({
    where,
    select: {
      ...RUN_ROW_SELECT,
      summary: true,
      errorMessage: true,
      poolConfigSnapshot: true,
      scenarioSnapshot: true,
      experiment: { select: { id: true, name: true } },
      target: { select: { id: true, name: true } },
    },
    // runs of one experiment share createdAt: newest execution slot first within it
    orderBy: [{ createdAt: 'desc' }, { sequence: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map(parseRun).map(({ poolConfigSnapshot, scenarioSnapshot, summary: s, ...r }) => {
      return {
        ...r,
        poolConfigName: poolConfigSnapshot.name ?? '—',
        strategy: poolConfigSnapshot.strategy ?? null,
        scenarioName: scenarioSnapshot.name ?? '—',
        rps: s?.rps ?? null,
        p95Ms: s?.latency?.p95 ?? null,
        errorRate: s?.errorRate ?? null,
      };
    }),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** What every list and page of runs reads of a run: its status, place and times. */
export const RUN_ROW_SELECT = {
  id: true,
  status: true,
  repeatIndex: true,
  sequence: true,
  createdAt: true,
  queuedAt: true,
  startedAt: true,
  finishedAt: true,
} as const;
