import type { Db } from '@poolbench/db';
import { gateOutcome, type InvalidRun } from '@poolbench/stats';
import type { TestedRunMetricKey } from '@poolbench/contracts';
import { baselineForCell } from '@poolbench/runs';
import type { CompareItem } from '~/lib/compare/selection';
import { InvalidInputError } from '../errors';
import {
  compareCell,
  experimentCells,
  judgeCell,
  gatedMetricKeys,
  invalidRunsOf,
  usable,
} from './experiment-cells';

/** What an experiment's cells are gated against: a saved baseline's name, or one of its configs. */
export type GateAgainst = { baseline: string } | { base: string };

export interface GateOptions {
  /** limit the comparison to these tested metrics (p adjusted over them alone) */
  metrics?: readonly TestedRunMetricKey[];
  /** compare only these elapsed seconds [from, to) of every run */
  window?: { from: number; to: number } | null;
}

type Experiment = Awaited<ReturnType<typeof experimentCells>>;

/** A cell of the experiment against `reference` through the compare service, as this gate asks. */
const cellComparer =
  (db: Db, teamId: string, experimentId: string, gate: Parameters<typeof compareCell>[6]) =>
  <B extends object>(
    cell: Parameters<typeof compareCell>[3],
    reference: CompareItem,
    baseline: B,
    referenceInvalid?: readonly InvalidRun[],
  ) =>
    compareCell(db, teamId, experimentId, cell, reference, baseline, gate, referenceInvalid);
type CompareWith = ReturnType<typeof cellComparer>;

/**
 * Gates every cell (pool config x scenario) of an experiment through the compare service the UI
 * uses (one value per run, Mann-Whitney U, Hodges-Lehmann interval, practical floor, p adjusted
 * across metrics). The outcome follows the one rule of `@poolbench/stats` (`gateOutcome`): a
 * `worse` verdict or a failed threshold is a regression; an estimate worse beyond the floor without
 * enough evidence is a suspected regression, never a pass; failed thresholds are named with their
 * runs. Invalid runs (`splitValidRuns`: the load was not offered, samples were lost) are left out
 * on both sides and named in `invalidRuns`. Too few valid runs on a side, or too many crashed or
 * invalid runs, make a cell `incomplete` with the reason.
 *
 * `{ baseline: name }` compares each cell with the saved baseline of that name for its target and
 * scenario (see `againstBaseline`); `{ base: config }` compares every other pool config's cell with
 * that config's cell of the same scenario in this experiment (see `againstPoolConfig`).
 *
 * The answer's `gatedOn` says which metrics the verdict rests on, whether `metrics` was given or not.
 */
export async function gateExperiment(
  db: Db,
  teamId: string,
  experimentId: string,
  against: GateAgainst,
  { metrics, window = null }: GateOptions = {},
) {
  const gatedOn = gatedMetricKeys(metrics);
  const e = await experimentCells(db, teamId, experimentId);
  const compareWith = cellComparer(db, teamId, e.id, {
    metrics: metrics ? gatedOn : undefined,
    window,
  });
  const { baseline, base, cells } =
    'base' in against
      ? await againstPoolConfig(e, against.base, compareWith)
      : await againstBaseline(db, teamId, e, against.baseline, compareWith);
  // a reference with too few runs makes its cell incomplete (gateCellState), on either path
  const outcome = gateOutcome(
    cells.map((c) => ({
      state: c.state,
      hasBaseline: c.baseline !== null,
      candidateRuns: c.candidateRuns,
    })),
  );
  return { experimentId: e.id, gatedOn, window, baseline, base, outcome, cells };
}

/**
 * Each cell against its own pool config's baseline of that name. Only where that config has none
 * and the scenario has exactly one baseline of that name is that other config's used (the answer
 * names it in `baseline.poolConfig`): a PR experiment may run a renamed copy of the config saved on
 * main.
 */
async function againstBaseline(
  db: Db,
  teamId: string,
  e: Experiment,
  baselineName: string,
  compareWith: CompareWith,
) {
  const baselines = await db.baseline.findMany({
    where: {
      teamId,
      targetId: e.targetId,
      name: baselineName,
      scenarioId: { in: e.cells.flatMap((c) => (c.scenario ? [c.scenario.id] : [])) },
    },
    select: {
      id: true,
      experimentId: true,
      runId: true,
      poolConfigId: true,
      scenarioId: true,
      poolConfig: { select: { id: true, name: true } },
    },
  });
  const none = { metrics: [], scriptMetrics: [], referenceInvalid: [] };
  const cells = [];
  for (const c of e.cells) {
    const b = pickBaseline(baselines, c.scenario?.id, c.poolConfig?.id);
    const baseItem: CompareItem | null = !b
      ? null
      : b.runId
        ? { kind: 'run', runId: b.runId }
        : b.experimentId && b.poolConfigId
          ? {
              kind: 'cell',
              experimentId: b.experimentId,
              poolConfigId: b.poolConfigId,
              scenarioId: b.scenarioId,
            }
          : null;
    if (!b || !baseItem || !c.poolConfig || !c.scenario) {
      const { poolConfig, scenario } = c;
      const judged = judgeCell(c, { ...none, referenceRuns: null });
      cells.push({ poolConfig, scenario, baseline: null, ...judged });
      continue;
    }
    const { poolConfig, scenario } = c;
    const baseline = {
      id: b.id,
      experimentId: b.experimentId,
      runId: b.runId,
      poolConfig: b.poolConfig,
    };
    if (usable(c.runs).length === 0 && invalidRunsOf(c.runs).length === 0) {
      // nothing measured yet (or every run failed): no verdict, and the outcome says incomplete
      const judged = judgeCell(c, { ...none, referenceRuns: 0 });
      cells.push({ poolConfig, scenario, baseline: { ...baseline, runs: 0 }, ...judged });
      continue;
    }
    cells.push(await compareWith({ ...c, poolConfig, scenario }, baseItem, baseline));
  }
  return { baseline: baselineName, base: null, cells };
}

/** The cell's own config's baseline (the schedules' rule); else the scenario's only one of that name. */
function pickBaseline<
  B extends { scenarioId: string; runId: string | null; poolConfigId: string | null },
>(baselines: B[], scenarioId: string | undefined, poolConfigId: string | undefined): B | undefined {
  if (!scenarioId) return undefined;
  const own = poolConfigId ? baselineForCell(baselines, { scenarioId, poolConfigId }) : undefined;
  const ofScenario = baselines.filter((x) => x.scenarioId === scenarioId);
  return own ?? (ofScenario.length === 1 ? ofScenario[0] : undefined);
}

/**
 * Config A against config B inside one experiment (same runs interleaved, so no saved baseline and
 * no drift between days): `base` names the reference config and each cell's `baseline` points at
 * that config's runs in this experiment, whose invalid runs are left out and named too.
 */
async function againstPoolConfig(e: Experiment, baseRef: string, compareWith: CompareWith) {
  const configs = [
    ...new Map(
      e.cells.flatMap((c) => (c.poolConfig ? [[c.poolConfig.id, c.poolConfig] as const] : [])),
    ).values(),
  ];
  const base = configs.find((p) => p.id === baseRef) ?? configs.find((p) => p.name === baseRef);
  if (!base)
    throw new InvalidInputError(
      'base',
      `"${baseRef}" is not a pool config of this experiment; it has ${configs.map((p) => `"${p.name}"`).join(', ')}`,
    );
  if (configs.length < 2)
    throw new InvalidInputError(
      'base',
      `the experiment has only the pool config "${base.name}"; gating one config against another needs at least two`,
    );

  const cells = [];
  for (const c of e.cells) {
    if (!c.poolConfig || !c.scenario || c.poolConfig.id === base.id) continue;
    const ref = e.cells.find(
      (x) => x.poolConfig?.id === base.id && x.scenario?.id === c.scenario!.id,
    )!;
    const { poolConfig, scenario } = c;
    const baseline = { id: base.id, experimentId: e.id, runId: null, poolConfig: base };
    // the base config's runs of this experiment, split by the same rule as the candidate's
    const referenceInvalid = invalidRunsOf(ref.runs);
    if (usable(c.runs).length === 0 || usable(ref.runs).length === 0) {
      const runs = usable(ref.runs).length;
      const judged = judgeCell(c, {
        metrics: [],
        scriptMetrics: [],
        referenceRuns: runs,
        referenceInvalid,
      });
      cells.push({ poolConfig, scenario, baseline: { ...baseline, runs }, ...judged });
      continue;
    }
    const reference = {
      kind: 'cell' as const,
      experimentId: e.id,
      poolConfigId: base.id,
      scenarioId: scenario.id,
    };
    cells.push(
      await compareWith({ ...c, poolConfig, scenario }, reference, baseline, referenceInvalid),
    );
  }
  // the base config is in this experiment: every cell has a baseline, maybe without runs yet
  return { baseline: base.name, base, cells };
}
