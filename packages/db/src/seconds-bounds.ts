import type { Db } from './client';

/** Clock differences between the worker, k6 and Postgres are far below this. */
const MARGIN = "interval '1 day'";

/**
 * Bounds on `ts` of a set of runs' RunSecond/ResourceSample rows, from the runs' own start and
 * finish, for queries over the per-second tables: with `ts` in the WHERE (and in a join's ON)
 * Postgres reads only the months the runs happened in. Without it, joining a run's seconds with
 * its resource samples hashed every month's samples (a year of history made the compare view
 * 1.6-2.4x slower, apps/web/bench/scale.ts). No run, or none started: an empty range.
 */
export async function secondsTsBounds(db: Db, runIds: string[]): Promise<{ from: Date; to: Date }> {
  const [b] = await db.$queryRawUnsafe<Array<{ from: Date | null; to: Date | null }>>(
    `SELECT min(coalesce("startedAt", "preparingAt", "queuedAt")) - ${MARGIN} AS "from",
            max(coalesce("finishedAt", now())) + ${MARGIN} AS "to"
       FROM "Run" WHERE id = ANY($1::text[])`,
    runIds,
  );
  if (!b?.from || !b.to) return { from: new Date(0), to: new Date(0) };
  return { from: b.from, to: b.to };
}
