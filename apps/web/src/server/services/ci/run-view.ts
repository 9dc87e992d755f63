import { parseRun, readPositionsInRound, type Db } from '@poolbench/db';
import { NotFoundError } from '../errors';
import { runValidityOf } from '@poolbench/runs';
import { runInsightsOf } from '../runs/run-insights';
import { SEGMENT_VIEW_SELECT, segmentView } from '../runs/segment-view';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const ref = (s: { id?: string; name?: string }) =>
  s.id && s.name ? { id: s.id, name: s.name } : null;

export async function runView(db: Db, teamId: string, id: string, baseUrl: string) {
  const row = await db.run.findFirst({
    where: { id, teamId },
    select: {
      id: true,
      experimentId: true,
      status: true,
      repeatIndex: true,
      queuedAt: true,
      startedAt: true,
      finishedAt: true,
      errorCode: true,
      errorMessage: true,
      summary: true,
      thresholdResults: true,
      environment: true,
      poolConfigSnapshot: true,
      scenarioSnapshot: true,
      loadGenerators: true,
      segments: { orderBy: { index: 'asc' }, select: SEGMENT_VIEW_SELECT },
    },
  });
  if (!row) throw new NotFoundError('run');
  const r = parseRun(row);
  const segments = r.segments.map(segmentView);
  return {
    id: r.id,
    experimentId: r.experimentId,
    status: r.status,
    // snapshots, not live rows: a run reports what it ran even after a config was edited
    poolConfig: ref(r.poolConfigSnapshot),
    scenario: ref(r.scenarioSnapshot),
    repeatIndex: r.repeatIndex,
    positionInRound: (await readPositionsInRound(db, [r.id])).get(r.id) ?? 0,
    queuedAt: r.queuedAt.toISOString(),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    summary: r.summary,
    thresholdResults: r.thresholdResults,
    loadGenerators: r.loadGenerators,
    segments,
    insights: await runInsightsOf(db, { ...r, segments }),
    validity: r.summary ? runValidityOf(r) : null,
    webUrl: `${baseUrl}/runs/${r.id}`,
  };
}
