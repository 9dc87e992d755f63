import { parseRun, type Db } from '@poolbench/db';
import type { RunInsight } from '@poolbench/stats';
import { getExperiment } from '../experiments/read-experiments';
import { STORED_INSIGHT_SELECT, storedRunInsights } from '@poolbench/runs';

/** Each run's insights from what it stored (summary, snapshots, machine), without per-second data. */
async function insightsByRun(db: Db, experimentId: string): Promise<Map<string, RunInsight[]>> {
  const rows = await db.run.findMany({
    where: { experimentId },
    select: { id: true, ...STORED_INSIGHT_SELECT },
  });
  return new Map(rows.map(parseRun).map((r) => [r.id, storedRunInsights(r)]));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The experiment as the REST API returns it (dates as ISO strings, links absolute). */
export async function experimentView(db: Db, teamId: string, id: string, baseUrl: string) {
  const e = await getExperiment(db, teamId, id);
  const insights = await insightsByRun(db, e.id);
  return {
    id: e.id,
    name: e.name,
    status: e.status,
    // an "until decided" experiment is finished when the rule stopped, not between two pairs
    finished:
      e.progress.done === e.progress.total &&
      (!e.sequential || e.sequential.state?.stop === true) &&
      // an advisor is finished when its search answered or stopped, not between two steps
      (!e.advisor || (e.advisor.state !== null && e.advisor.state.status !== 'running')),
    repeats: e.repeats,
    order: e.order,
    createdAt: e.createdAt.toISOString(),
    finishedAt: iso(e.finishedAt),
    target: { id: e.target.id, name: e.target.name },
    poolConfigs: e.poolConfigs.map((p) => ({ id: p.id, name: p.name })),
    scenarios: e.scenarios.map((s) => ({ id: s.id, name: s.name })),
    progress: e.progress,
    runs: e.runs.map((r) => ({
      id: r.id,
      status: r.status,
      poolConfigId: r.poolConfigId,
      scenarioId: r.scenarioId,
      repeatIndex: r.repeatIndex,
      sequence: r.sequence,
      positionInRound: r.positionInRound,
      startedAt: iso(r.startedAt),
      finishedAt: iso(r.finishedAt),
      errorMessage: r.errorMessage,
      insights: insights.get(r.id) ?? [],
    })),
    hypotheses: e.hypotheses.items.map((h) => ({ ...h, decidedAt: iso(h.decidedAt) })),
    sequential: e.sequential,
    advisor: e.advisor,
    commit: e.commit,
    branch: e.branch,
    buildUrl: e.buildUrl,
    webUrl: `${baseUrl}/experiments/${e.id}`,
  };
}
