import type { Db } from '@poolbench/db';
import { scenarioRowData } from '@poolbench/db';
// the sub-paths keep the web app's types off the k6 runner, which the web app never starts
import { SandboxUnavailableError } from '@poolbench/k6/sandbox';
import { validateUserScript } from '@poolbench/k6/user-script';
import {
  scriptScenarioRows,
  scriptThresholds,
  type InspectedScript,
  type ScriptScenario,
  type ScriptScenarioRow,
} from '@poolbench/scenarios';
import { AppError, ConflictError, InvalidInputError, NotFoundError } from '../errors';
import { getScenario } from './scenarios';
import { assertScriptScenariosAllowed, scriptScenariosAllowed } from '@poolbench/runs';
import { env } from '~/server/env';
import { redis } from '~/server/redis';
import { ScriptCheckSlots } from './script-check-slots';

const checkSlots = new ScriptCheckSlots(redis);

export type ScriptInspection =
  | {
      ok: true;
      inspected: InspectedScript;
      scenarios: ScriptScenarioRow[];
      thresholds: ReturnType<typeof scriptThresholds>;
    }
  | { ok: false; error: string };

/**
 * Checks a team's k6 script before it is saved, in the sandbox without network (packages/k6
 * `validateUserScript`): k6's own message and line for a syntax error, a missing module or a
 * remote import; otherwise the options k6 resolved, its scenarios, and which of its thresholds
 * PoolBench evaluates.
 */
export async function inspectScript(
  db: Db,
  teamId: string,
  input: { source: string; files: Record<string, string> },
  slots: ScriptCheckSlots = checkSlots,
): Promise<ScriptInspection> {
  await assertScriptScenariosAllowed(db, teamId, 'source');
  // every check runs k6 on this host: a bounded number at once, per team and installation-wide
  const release = await slots.acquire(teamId);
  try {
    const r = await validateUserScript(input.source, input.files, { k6Bin: env.POOLBENCH_K6_BIN });
    if (!r.ok) return { ok: false, error: r.error };
    return {
      ok: true,
      inspected: {
        options: r.options,
        ...(r.maxVUs !== undefined ? { maxVUs: r.maxVUs } : {}),
        ...(r.totalDuration !== undefined ? { totalDuration: r.totalDuration } : {}),
        archiveBytes: r.archiveBytes,
      },
      scenarios: scriptScenarioRows(r.options),
      thresholds: scriptThresholds(r.options),
    };
  } catch (err) {
    if (err instanceof SandboxUnavailableError)
      throw new AppError(
        'unavailable',
        `k6 scripts cannot be checked on this server: ${err.message}`,
      );
    throw err;
  } finally {
    await release();
  }
}

/**
 * Saves a team's k6 script as a scenario (new, or over `id`) once the sandbox has checked it; the
 * inspected options are stored with it so lists and estimates need no second check.
 */
export async function saveScriptScenario(
  db: Db,
  teamId: string,
  input: { id?: string; name: string; script: ScriptScenario },
) {
  const checked = await inspectScript(db, teamId, input.script);
  if (!checked.ok) throw new InvalidInputError('script.source', checked.error);
  const name = input.name;
  const clash = await db.scenario.findFirst({
    where: {
      teamId,
      name,
      archivedAt: null,
      ...(input.id ? { id: { not: input.id } } : {}),
    },
    select: { id: true },
  });
  if (clash) throw new ConflictError(`a scenario named "${name}" already exists`);
  const row = scenarioRowData({ ...input.script, inspected: checked.inspected });
  if (input.id) {
    const existing = await db.scenario.findFirst({
      where: { id: input.id, teamId, archivedAt: null },
      select: { id: true },
    });
    if (!existing) throw new NotFoundError('scenario');
    await db.scenario.update({ where: { id: input.id }, data: { name, ...row } });
    return getScenario(db, teamId, input.id);
  }
  const created = await db.scenario.create({
    data: { teamId, name, ...row },
    select: { id: true },
  });
  return getScenario(db, teamId, created.id);
}

/** Whether the team's members may import and run their own k6 scripts. */
export async function getScriptPolicy(db: Db, teamId: string) {
  return { enabled: await scriptScenariosAllowed(db, teamId) };
}

/** Turns the team's own k6 scripts on or off (admins); off also stops queued script runs from starting. */
export async function setScriptPolicy(db: Db, teamId: string, enabled: boolean) {
  await db.team.update({ where: { id: teamId }, data: { scriptScenarios: enabled } });
  return getScriptPolicy(db, teamId);
}
