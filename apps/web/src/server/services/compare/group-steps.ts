import { median, type RunSummary } from '@poolbench/stats';

/** One request name (a flow's step, a request of a mix) over a group's runs. */
export interface GroupStep {
  name: string;
  /** runs that sent it */
  runs: number;
  requests: number;
  failed: number;
  /** the median over those runs of each run's percentile, ms */
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/**
 * A group's requests by name, from each run's whole-load summary (the output keeps them per
 * name, not per second, so a time window does not apply). Names in the order the runs list them
 * (the scenario's order); nothing when no run has two or more names.
 */
export function groupSteps(runs: ReadonlyArray<{ summary: RunSummary | null }>): GroupStep[] {
  if (!runs.some((r) => (r.summary?.steps?.length ?? 0) >= 2)) return [];
  const byName = new Map<
    string,
    { runs: number; requests: number; failed: number; p50: number[]; p95: number[]; p99: number[] }
  >();
  for (const r of runs)
    for (const s of r.summary?.steps ?? []) {
      let a = byName.get(s.name);
      if (!a)
        byName.set(s.name, (a = { runs: 0, requests: 0, failed: 0, p50: [], p95: [], p99: [] }));
      a.runs++;
      a.requests += s.requests;
      a.failed += s.failed;
      if (s.latency) {
        a.p50.push(s.latency.p50);
        a.p95.push(s.latency.p95);
        a.p99.push(s.latency.p99);
      }
    }
  const med = (xs: number[]) => (xs.length ? median(xs) : null);
  return [...byName].map(([name, a]) => ({
    name,
    runs: a.runs,
    requests: a.requests,
    failed: a.failed,
    p50: med(a.p50),
    p95: med(a.p95),
    p99: med(a.p99),
  }));
}
