import { parseRun, scenarioFromColumns, type Db, type ScenarioSnapshot } from '@poolbench/db';
import { generateScenario, isScriptScenario, paramsNotApplied } from '@poolbench/scenarios';
import { LabEnvironmentSchema, resolveLabEnvironment } from '@poolbench/contracts';
import { runValidityOf } from '@poolbench/runs';
import { NotFoundError } from '../errors';
import { runInsightsOf } from './run-insights';
import { SEGMENT_VIEW_SELECT, segmentView } from './segment-view';
import { RUN_ROW_SELECT } from './list-runs';

/** The script the worker stored, or (for a run not started yet) the one its snapshot generates. */
function scriptOf(run: {
  script: string | null;
  scenarioSnapshot: ScenarioSnapshot;
}): string | null {
  if (run.script) return run.script;
  const sc = run.scenarioSnapshot;
  if (!sc.templateId) return null;
  const columns = scenarioFromColumns(sc);
  if (isScriptScenario(columns)) return typeof columns.source === 'string' ? columns.source : null;
  try {
    return generateScenario(scenarioFromColumns(sc)).script;
  } catch {
    return null; // a snapshot from an older template shape
  }
}

/**
 * The snapshot's params a managed run's runtime did not apply (null for URL targets, whose pool
 * is the service's own): PHP-FPM, for one, has no acquire timeout or idle lifetime to set.
 */
function poolParamsNotAppliedOf(run: {
  poolConfigSnapshot: { strategy?: string; params?: Record<string, number>; environment?: unknown };
  targetSnapshot: { managed?: { environment?: unknown } | null };
}): { runtime: string; keys: string[] } | null {
  const managed = run.targetSnapshot.managed;
  if (!managed) return null;
  const pc = run.poolConfigSnapshot;
  const env = resolveLabEnvironment(
    LabEnvironmentSchema.safeParse(managed.environment ?? {}).data,
    LabEnvironmentSchema.safeParse(pc.environment ?? {}).data,
  );
  const { label, keys } = paramsNotApplied(pc.strategy, Object.keys(pc.params ?? {}), env);
  return { runtime: label, keys };
}

export async function getRun(db: Db, teamId: string, id: string) {
  const run = await db.run.findFirst({
    where: { id, teamId },
    select: {
      ...RUN_ROW_SELECT,
      preparingAt: true,
      cancelRequestedAt: true,
      workerId: true,
      environment: true,
      errorCode: true,
      errorMessage: true,
      summary: true,
      thresholdResults: true,
      notes: true,
      script: true,
      secondsPrunedAt: true,
      poolConfigSnapshot: true,
      scenarioSnapshot: true,
      targetSnapshot: true,
      loadGenerators: true,
      segments: { orderBy: { index: 'asc' }, select: SEGMENT_VIEW_SELECT },
      experiment: { select: { id: true, name: true, repeats: true } },
      target: { select: { id: true, name: true, kind: true } },
    },
  });
  if (!run) throw new NotFoundError('run');
  const parsed = parseRun(run);
  const segments = run.segments.map(segmentView);
  const insights = await runInsightsOf(db, { ...parsed, segments });
  return {
    ...parsed,
    segments,
    script: scriptOf(parsed),
    insights,
    validity: parsed.summary ? runValidityOf(parsed) : null,
    poolParamsNotApplied: poolParamsNotAppliedOf(parsed),
  };
}
