import type { Db } from '@poolbench/db';
import { storedRunInsights, type StoredInsightRun } from '@poolbench/runs';
import type { RunInsight } from '@poolbench/stats';

/** What `runInsightsOf` reads of a run (a parsed Run row with its segments). */
export interface InsightRun extends StoredInsightRun {
  id: string;
}

/**
 * A run's insights (`runInsights` of @poolbench/stats) from what it stored: its summary, the
 * scenario's load model, VU cap and planned iterations, the pool config, the machine it ran on, the
 * generators' CPU and its per-second requests, active VUs, median and slowest latency. One
 * database read (the per-second rows).
 */
export async function runInsightsOf(db: Db, run: InsightRun): Promise<RunInsight[]> {
  if (!run.summary) return [];
  const seconds = await db.runSecond.findMany({
    where: { runId: run.id, segment: 'all' },
    select: { requests: true, p50Ms: true, vus: true, maxMs: true },
    orderBy: { second: 'asc' },
  });
  return storedRunInsights(run, seconds);
}
