import type { Db } from './client';

/**
 * Storage that keeps up with a year of schedules: RunSecond and ResourceSample are partitioned by
 * the month of their timestamp (migration 20261124000900_partition_per_second). This module keeps
 * the partitions ahead of time, applies each team's retention, and drops months left empty.
 * Every process that runs the lifecycle sweeper calls `maintainStorage` now and then; a
 * transaction-level advisory lock makes the others skip while one works.
 */
export const PARTITIONED_TABLES = ['RunSecond', 'ResourceSample'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

const MAINTENANCE_LOCK = 'poolbench_storage_maintenance';
/** Partitions kept ready after the current month, so inserts never wait for one to be made. */
export const MONTHS_AHEAD = 2;
/** Runs whose seconds are removed per statement, so a first retention pass never holds long locks. */
const PRUNE_BATCH = 200;

export interface Partition {
  table: PartitionedTable;
  name: string;
  /** null for the DEFAULT partition */
  from: Date | null;
  to: Date | null;
  rows: number;
}

const monthStart = (d: Date, plus = 0) =>
  new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + plus, 1));

/** Makes (idempotently) the month partition containing `at`; rows of that month waiting in the default partition move in. */
export async function ensureMonthPartition(
  db: Db,
  table: PartitionedTable,
  at: Date,
): Promise<string> {
  const rows = await db.$queryRaw<
    Array<{ name: string }>
  >`SELECT poolbench_ensure_month_partition(${table}, ${at}::timestamptz) AS name`;
  return rows[0]!.name;
}

/** Every partition of the partitioned tables, with its bounds and exact row count. */
export async function listPartitions(db: Db): Promise<Partition[]> {
  const parts = await db.$queryRaw<Array<{ parent: string; name: string; bound: string }>>`
    SELECT parent.relname AS parent, child.relname AS name, pg_get_expr(child.relpartbound, child.oid) AS bound
    FROM pg_inherits i JOIN pg_class parent ON parent.oid = i.inhparent JOIN pg_class child ON child.oid = i.inhrelid
    WHERE parent.relname IN ('RunSecond', 'ResourceSample') ORDER BY parent.relname, child.relname`;
  const out: Partition[] = [];
  for (const p of parts) {
    const m = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(p.bound);
    const count = await db.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM "${p.name.replaceAll('"', '')}"`,
    );
    out.push({
      table: p.parent as PartitionedTable,
      name: p.name,
      from: m ? new Date(m[1]!) : null,
      to: m ? new Date(m[2]!) : null,
      rows: Number(count[0]!.n),
    });
  }
  return out;
}

export interface PruneResult {
  runs: number;
  seconds: number;
  samples: number;
}

/**
 * Retention: removes the per-second rows of runs that finished more than their team's
 * `retentionDays` ago and marks them (`secondsPrunedAt`). Summaries, merged histograms, threshold
 * results and the runs themselves stay, so whole-run comparisons, baselines and trends keep working.
 */
export async function pruneExpiredSeconds(db: Db, now = new Date()): Promise<PruneResult> {
  const total: PruneResult = { runs: 0, seconds: 0, samples: 0 };
  for (;;) {
    const batch = await db.$transaction(async (tx) => {
      const ids = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT r.id FROM "Run" r JOIN "Team" t ON t.id = r."teamId"
        WHERE t."retentionDays" IS NOT NULL AND r."secondsPrunedAt" IS NULL AND r."finishedAt" IS NOT NULL
          AND r."finishedAt" < ${now}::timestamptz - make_interval(days => t."retentionDays")
        ORDER BY r."finishedAt" LIMIT ${PRUNE_BATCH} FOR UPDATE OF r SKIP LOCKED`;
      if (ids.length === 0) return null;
      const runIds = ids.map((r) => r.id);
      const seconds = await tx.runSecond.deleteMany({ where: { runId: { in: runIds } } });
      const samples = await tx.resourceSample.deleteMany({ where: { runId: { in: runIds } } });
      await tx.run.updateMany({ where: { id: { in: runIds } }, data: { secondsPrunedAt: now } });
      return { runs: runIds.length, seconds: seconds.count, samples: samples.count };
    });
    if (!batch) return total;
    total.runs += batch.runs;
    total.seconds += batch.seconds;
    total.samples += batch.samples;
  }
}

/**
 * Drops month partitions that are empty and ended before the previous month began (a run that
 * started at the end of a month still writes into it for a while). Dropping a month is instant,
 * where deleting its rows would be slow and leave the table bloated.
 */
export async function dropEmptyOldPartitions(db: Db, now = new Date()): Promise<string[]> {
  const keepFrom = monthStart(now, -1);
  const dropped: string[] = [];
  for (const p of await listPartitions(db)) {
    if (!p.to || p.to > keepFrom || p.rows > 0) continue;
    // Re-checked under the table lock: a row may have arrived since the count.
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`LOCK TABLE "${p.name}" IN ACCESS EXCLUSIVE MODE`);
      const still = await tx.$queryRawUnsafe<Array<{ any: boolean }>>(
        `SELECT EXISTS (SELECT 1 FROM "${p.name}") AS any`,
      );
      if (still[0]!.any) return;
      await tx.$executeRawUnsafe(`DROP TABLE "${p.name}"`);
      dropped.push(p.name);
    });
  }
  return dropped;
}

export interface MaintenanceResult {
  skipped: boolean;
  ensured: string[];
  pruned: PruneResult;
  dropped: string[];
}

/** The longest a maintenance pass may take. */
const MAINTENANCE_PASS_MS = 30 * 60_000;

/**
 * One maintenance pass; `skipped` when another process is doing one. The lock is a
 * transaction-level advisory lock held by one open transaction for the pass (a session lock taken
 * through a connection pool could be released on another connection, or leak).
 */
export async function maintainStorage(db: Db, now = new Date()): Promise<MaintenanceResult> {
  return db.$transaction(
    async (lockTx) => {
      // the lock's transaction waits, idle, while the pass works on other connections
      await lockTx.$executeRawUnsafe(
        `SET LOCAL idle_in_transaction_session_timeout = ${MAINTENANCE_PASS_MS}`,
      );
      const lock = await lockTx.$queryRaw<
        Array<{ ok: boolean }>
      >`SELECT pg_try_advisory_xact_lock(hashtext(${MAINTENANCE_LOCK})) AS ok`;
      if (!lock[0]!.ok)
        return {
          skipped: true,
          ensured: [],
          pruned: { runs: 0, seconds: 0, samples: 0 },
          dropped: [],
        };
      const ensured: string[] = [];
      for (const table of PARTITIONED_TABLES) {
        for (let k = 0; k <= MONTHS_AHEAD; k++)
          ensured.push(await ensureMonthPartition(db, table, monthStart(now, k)));
      }
      const pruned = await pruneExpiredSeconds(db, now);
      const dropped = await dropEmptyOldPartitions(db, now);
      return { skipped: false, ensured, pruned, dropped };
    },
    { maxWait: 10_000, timeout: MAINTENANCE_PASS_MS },
  );
}
