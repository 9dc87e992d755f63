import { scenarioRowData, scenarioToColumns, toJson, type Db } from '@poolbench/db';
import {
  applyScale,
  canonicalJson,
  listPresets,
  resolvePresetHypotheses,
  seedPlan,
  type Hypothesis,
  type Preset,
  type SeedPlan,
} from '@poolbench/scenarios';
import type { Queue } from 'bullmq';
import { launchAndEnqueue, type QueuedLaunch } from '../launch-and-enqueue';
import type { LaunchExperimentInput } from '../launch-experiment';

/** Experiments of one reproduction are named `${SEEDS_PREFIX}<reproduction id> · <preset title>`. */
export const SEEDS_PREFIX = 'Seeds ';

export interface SeedsOptions {
  /** seed ids to run ("000", "002"); all when empty */
  seeds?: string[];
  /** one scale for every preset (1 = the seeds' real lengths); each preset's seedsScale when absent */
  scale?: number;
  /**
   * "Until decided, at most N repeats per side": after the preset's repeats, each claim is decided
   * by the sequential rule and the experiment grows a round at a time until every claim is decided
   * or N is reached. Absent: the preset's repeats, decided once (fixed design).
   */
  untilDecided?: number | null;
  createdById?: string | null;
}

export interface LaunchedSeed {
  plan: SeedPlan;
  launch: QueuedLaunch;
}

/** The reproduction id of an experiment name, or null when it is not part of one. */
export function reproductionOf(name: string): string | null {
  if (!name.startsWith(SEEDS_PREFIX)) return null;
  const id = name.slice(SEEDS_PREFIX.length).split(' · ')[0];
  return id && /^\d{8}-\d{6}$/.test(id) ? id : null;
}

/** Seed presets to reproduce, at their seeds scale or the one given; unknown seed ids are an error naming them. */
export function seedPresets(opts: Pick<SeedsOptions, 'seeds' | 'scale'> = {}): Preset[] {
  const all = listPresets();
  const wanted = (opts.seeds ?? []).filter(Boolean);
  const unknown = wanted.filter((s) => !all.some((p) => p.seed === s));
  if (unknown.length > 0)
    throw new RangeError(
      `seeds: unknown seed ${unknown.join(', ')} (known: ${[...new Set(all.map((p) => p.seed))].join(', ')})`,
    );
  return all
    .filter((p) => wanted.length === 0 || wanted.includes(p.seed))
    .map((p) => applyScale(p, opts.scale ?? p.seedsScale));
}

const scaleText = (s: number) => `×${s}`;

export async function ensureScenario(
  db: Db,
  teamId: string,
  preset: Preset,
  ps: Preset['scenarios'][number],
): Promise<string> {
  const name = `${preset.seed} · ${ps.label} · seeds ${scaleText(preset.scale)}`;
  const cols = scenarioToColumns(ps.scenario);
  const found = await db.scenario.findFirst({
    where: { teamId, name, archivedAt: null },
    select: { id: true, templateId: true, params: true, thresholds: true },
  });
  if (
    found &&
    canonicalJson([found.templateId, found.params, found.thresholds]) ===
      canonicalJson([cols.templateId, cols.params, cols.thresholds])
  )
    return found.id;
  // A preset changed since the row was made: keep history on the archived row, start a new one.
  if (found)
    await db.scenario.update({ where: { id: found.id }, data: { archivedAt: new Date() } });
  const row = await db.scenario.create({
    data: { teamId, name, ...scenarioRowData(ps.scenario), presetId: `${preset.id}#${ps.id}` },
    select: { id: true },
  });
  return row.id;
}

export async function ensurePoolConfig(
  db: Db,
  teamId: string,
  targetId: string,
  preset: Preset,
  pc: Preset['poolConfigs'][number],
): Promise<string> {
  const name = `${preset.seed} · ${pc.name} · seeds ${scaleText(preset.scale)}`;
  // compared as stored: the column values toJson writes, keys in canonical order (jsonb reorders them)
  const want = {
    strategy: pc.config.strategy,
    params: toJson.poolParams(pc.config.params ?? {}),
    instanceCount: pc.config.instanceCount,
    environment: pc.config.environment ? toJson.poolEnvironment(pc.config.environment) : null,
  };
  const found = await db.poolConfig.findFirst({
    where: { targetId, name, archivedAt: null },
    select: { id: true, strategy: true, params: true, instanceCount: true, environment: true },
  });
  if (
    found &&
    canonicalJson({
      strategy: found.strategy,
      params: found.params,
      instanceCount: found.instanceCount,
      environment: found.environment,
    }) === canonicalJson(want)
  )
    return found.id;
  if (found)
    await db.poolConfig.update({ where: { id: found.id }, data: { archivedAt: new Date() } });
  const row = await db.poolConfig.create({
    data: {
      teamId,
      targetId,
      name,
      strategy: want.strategy,
      params: want.params,
      instanceCount: want.instanceCount,
      ...(want.environment ? { environment: want.environment } : {}),
    },
    select: { id: true },
  });
  return row.id;
}

/**
 * One reproduction of the seeds through the product's own launch path: per seed preset an
 * experiment of the cells its claims name (`seedPlan`), 5 counterbalanced repeats, with the claims
 * as pre-registered hypotheses, enqueued like any other experiment. Used by `make seeds` and the
 * Seeds page's Reproduce button alike.
 */
export async function launchSeeds(
  deps: { db: Db; queue: Queue },
  teamId: string,
  targetId: string,
  opts: SeedsOptions = {},
  now = new Date(),
): Promise<{ reproductionId: string; launched: LaunchedSeed[] }> {
  const reproductionId = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const launched: LaunchedSeed[] = [];
  for (const preset of seedPresets(opts)) {
    const plan = seedPlan(preset);
    const scenarioIds = new Map<string, string>();
    for (const s of plan.scenarios)
      scenarioIds.set(s.id, await ensureScenario(deps.db, teamId, preset, s));
    const poolConfigIds = new Map<string, string>();
    for (const c of plan.poolConfigs)
      poolConfigIds.set(c.name, await ensurePoolConfig(deps.db, teamId, targetId, preset, c));
    // `hypotheses` is the launch input of the hypotheses work (docs/hypotheses.md); typed here too
    // so this file does not depend on the order the two branches are merged in.
    const input: LaunchExperimentInput & { hypotheses: Hypothesis[] } = {
      teamId,
      targetId,
      poolConfigIds: [...poolConfigIds.values()],
      scenarioIds: [...scenarioIds.values()],
      repeats: preset.repeats,
      // the claims compare configs: no config is always first in its round
      order: 'counterbalanced',
      name: `${SEEDS_PREFIX}${reproductionId} · ${preset.title} (scale ${preset.scale})`,
      presetId: preset.id,
      createdById: opts.createdById ?? null,
      hypotheses: resolvePresetHypotheses(preset.hypotheses, poolConfigIds, scenarioIds),
      untilDecided: opts.untilDecided
        ? { maxRepeats: Math.max(opts.untilDecided, preset.repeats) }
        : null,
    };
    const launch = await launchAndEnqueue(deps, input);
    launched.push({ plan, launch });
  }
  return { reproductionId, launched };
}
