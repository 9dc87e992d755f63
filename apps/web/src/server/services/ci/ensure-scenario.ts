import { createHash } from 'node:crypto';
import type { Db } from '@poolbench/db';
import { scenarioFromColumns, scenarioRowData } from '@poolbench/db';
import {
  canonicalJson,
  parseScenario,
  TEMPLATES,
  type ScenarioInput,
  type TemplateId,
} from '@poolbench/scenarios';
import { ConflictError } from '../errors';

/**
 * An inline scenario becomes a scenario row, and the same content sent again maps to the same row.
 * Baselines are keyed by target + scenario, so a CI job that sends its scenario inline on every
 * run must land on one scenario, or it could never be compared with its own history.
 */
export async function ensureScenario(
  db: Db,
  teamId: string,
  input: ScenarioInput,
  name?: string,
): Promise<string> {
  const scenario = parseScenario(input, 'scenario');
  const content = canonicalJson(scenario);
  const hash = createHash('sha256').update(content).digest('hex');
  const rowName = name ?? inlineScenarioName(scenario, hash);
  let existing = await db.scenario.findFirst({
    where: { teamId, name: rowName, archivedAt: null },
    select: { id: true, templateId: true, params: true, thresholds: true },
  });
  if (!existing && !name) {
    // rows saved under the older name `api-<hash>` keep their id (and so their baselines and
    // history) and take the readable name
    const legacy = await db.scenario.findFirst({
      where: { teamId, name: `api-${hash.slice(0, 12)}`, archivedAt: null },
      select: { id: true, templateId: true, params: true, thresholds: true },
    });
    if (legacy && canonicalJson(scenarioFromColumns(legacy)) === content) {
      await db.scenario.update({ where: { id: legacy.id }, data: { name: rowName } });
      existing = legacy;
    }
  }
  if (existing) {
    if (canonicalJson(scenarioFromColumns(existing)) !== content) {
      throw new ConflictError(
        `a different scenario is already saved as "${rowName}"; choose another scenarioName or send its id`,
      );
    }
    return existing.id;
  }
  const created = await db.scenario
    .create({ data: { teamId, name: rowName, ...scenarioRowData(scenario) }, select: { id: true } })
    .catch(async (err: unknown) => {
      // two CI jobs sending the same new scenario at once: the loser uses the winner's row
      const again = await db.scenario.findFirst({
        where: { teamId, name: rowName, archivedAt: null },
        select: { id: true },
      });
      if (again) return again;
      throw err;
    });
  return created.id;
}

/**
 * A readable, stable name for an inline scenario, from its content: template, load, first request,
 * length and a short content hash (the same content always gets the same name, another content
 * another one), e.g. "Constant arrival rate 40 req/s · GET /work · 3 s · a51a6d". This is what PR
 * comments, the Trends picker and the experiment form show.
 */
export function inlineScenarioName(scenario: ReturnType<typeof parseScenario>, hash: string) {
  const p: Record<string, unknown> = scenario.params ?? {};
  const n = (k: string) => (typeof p[k] === 'number' ? (p[k] as number) : null);
  const template = TEMPLATES[scenario.template as TemplateId]?.label ?? scenario.template;
  const load =
    n('ratePerSec') !== null
      ? `${n('ratePerSec')} req/s`
      : n('requests') !== null && n('concurrency') !== null
        ? `${n('requests')} requests × ${n('concurrency')}`
        : n('vus') !== null
          ? `${n('vus')} VUs`
          : null;
  const reqs =
    (scenario as { requests?: Array<{ method?: string; path?: string }> }).requests ?? [];
  const first = reqs[0] ? `${reqs[0].method ?? 'GET'} ${reqs[0].path ?? '/'}` : 'GET /';
  const request = reqs.length > 1 ? `${first} +${reqs.length - 1}` : first;
  const ms = n('durationMs') ?? n('maxDurationMs');
  const length = ms !== null ? `${+(ms / 1000).toFixed(1)} s` : null;
  const name = [[template, load].filter(Boolean).join(' '), request, length, hash.slice(0, 6)]
    .filter(Boolean)
    .join(' · ');
  return name.length <= 120 ? name : `${name.slice(0, 110)}… ${hash.slice(0, 6)}`;
}
