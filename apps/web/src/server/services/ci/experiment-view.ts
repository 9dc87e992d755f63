import type { Db } from '@poolbench/db';
import { getExperiment } from '../experiments/read-experiments';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The experiment as the REST API returns it (dates as ISO strings, links absolute). */
export async function experimentView(db: Db, teamId: string, id: string, baseUrl: string) {
  const e = await getExperiment(db, teamId, id);
  return {
    id: e.id,
    name: e.name,
    status: e.status,
    finished: e.progress.done === e.progress.total,
    repeats: e.repeats,
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
      startedAt: iso(r.startedAt),
      finishedAt: iso(r.finishedAt),
      errorMessage: r.errorMessage,
    })),
    hypotheses: e.hypotheses.items.map((h) => ({ ...h, decidedAt: iso(h.decidedAt) })),
    commit: e.commit,
    branch: e.branch,
    buildUrl: e.buildUrl,
    webUrl: `${baseUrl}/experiments/${e.id}`,
  };
}
