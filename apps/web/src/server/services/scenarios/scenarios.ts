import type { Db, Prisma } from '@poolbench/db';
import { scenarioFromColumns, scenarioRowData } from '@poolbench/db';
import {
  generateScenario,
  INSIGHT_THRESHOLD_EXPR,
  isScriptScenario,
  ScenarioSchema,
  scriptPlannedMs,
  ScriptScenarioSchema,
  type Scenario,
  type ScriptScenario,
} from '@poolbench/scenarios';
import type { InsightCode } from '@poolbench/stats';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors';

const SELECT = {
  id: true,
  name: true,
  templateId: true,
  params: true,
  thresholds: true,
  presetId: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.ScenarioSelect;
type Row = Prisma.ScenarioGetPayload<{ select: typeof SELECT }>;

/** The row as a ScenarioSchema value plus what the UI shows beside it. */
function view(row: Row) {
  const scenario = scenarioFromColumns(row);
  let estimatedDurationMs: number | null = null;
  let maxVUs: number | null = null;
  if (isScriptScenario(scenario)) {
    const script = ScriptScenarioSchema.safeParse(scenario);
    if (script.success) {
      estimatedDurationMs = scriptPlannedMs(script.data);
      maxVUs = script.data.inspected?.maxVUs ?? null;
    }
  } else {
    try {
      const g = generateScenario(scenario);
      estimatedDurationMs = g.estimatedDurationMs;
      maxVUs = g.maxVUs;
    } catch {
      // a row saved before a schema change: still listed, flagged by the null estimate
    }
  }
  return {
    id: row.id,
    name: row.name,
    templateId: row.templateId,
    presetId: row.presetId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    scenario,
    estimatedDurationMs,
    maxVUs,
  };
}

async function assertNameFree(db: Db, teamId: string, name: string, exceptId?: string) {
  const clash = await db.scenario.findFirst({
    where: { teamId, name, archivedAt: null, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw new ConflictError(`a scenario named "${name}" already exists`);
}

export async function listScenarios(db: Db, teamId: string) {
  const rows = await db.scenario.findMany({
    where: { teamId, archivedAt: null },
    select: SELECT,
    orderBy: { createdAt: 'desc' },
  });
  return rows.map(view);
}

export async function getScenario(db: Db, teamId: string, id: string) {
  const row = await db.scenario.findFirst({
    where: { id, teamId, archivedAt: null },
    select: SELECT,
  });
  if (!row) throw new NotFoundError('scenario');
  return view(row);
}

const data = (scenario: Scenario | ScriptScenario) => scenarioRowData(scenario);

export async function createScenario(
  db: Db,
  teamId: string,
  input: { name: string; scenario: Scenario; presetId?: string | null },
) {
  await assertNameFree(db, teamId, input.name);
  const row = await db.scenario.create({
    data: { teamId, name: input.name, presetId: input.presetId ?? null, ...data(input.scenario) },
    select: SELECT,
  });
  return view(row);
}

export async function updateScenario(
  db: Db,
  teamId: string,
  input: { id: string; name: string; scenario: Scenario },
) {
  const existing = await db.scenario.findFirst({
    where: { id: input.id, teamId, archivedAt: null },
    select: { id: true },
  });
  if (!existing) throw new NotFoundError('scenario');
  await assertNameFree(db, teamId, input.name, input.id);
  return view(
    await db.scenario.update({
      where: { id: input.id },
      data: { name: input.name, ...data(input.scenario) },
      select: SELECT,
    }),
  );
}

export async function archiveScenario(db: Db, teamId: string, id: string) {
  const row = await db.scenario.findFirst({
    where: { id, teamId, archivedAt: null },
    select: { id: true, name: true },
  });
  if (!row) throw new NotFoundError('scenario');
  // keeps its name (unique among live rows only), so the name is free for a new scenario
  await db.scenario.update({ where: { id }, data: { archivedAt: new Date() } });
}

/**
 * Turns a run insight into a threshold of the scenario: `insight:<code>` is "absent", so later
 * runs of it end `thresholds_failed` when the insight is found. Adding one that is there already
 * changes nothing; the whole scenario is checked by its schema (at most 32 thresholds).
 */
export async function addInsightThreshold(
  db: Db,
  teamId: string,
  input: { id: string; code: InsightCode },
) {
  const row = await db.scenario.findFirst({
    where: { id: input.id, teamId, archivedAt: null },
    select: SELECT,
  });
  if (!row) throw new NotFoundError('scenario');
  const columns = scenarioFromColumns(row);
  const schema = isScriptScenario(columns) ? ScriptScenarioSchema : ScenarioSchema;
  const scenario = schema.parse(columns);
  const metric = `insight:${input.code}` as const;
  if (scenario.thresholds.some((t) => t.metric === metric)) return view(row);
  const next = schema.safeParse({
    ...scenario,
    thresholds: [...scenario.thresholds, { metric, expr: INSIGHT_THRESHOLD_EXPR }],
  });
  if (!next.success)
    throw new InvalidInputError(
      'thresholds',
      next.error.issues[0]?.message ?? 'the scenario cannot take another threshold',
    );
  return view(
    await db.scenario.update({
      where: { id: row.id },
      data: data(next.data),
      select: SELECT,
    }),
  );
}
