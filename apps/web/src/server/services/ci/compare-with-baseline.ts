import type { Db } from '@poolbench/db';
import { gateOutcome } from '@poolbench/stats';
import type { TestedRunMetricKey } from '@poolbench/contracts';
import type { CompareItem } from '~/lib/compare/selection';
import { baselineForCell } from '@poolbench/runs';
import {
  compareCell,
  experimentCells,
  judgeCell,
  gatedMetricKeys,
  invalidRunsOf,
  usable,
} from './experiment-cells';

/**
 * Compares every cell (pool config x scenario) of an experiment with the baseline of that name for
 * its target and scenario, through the compare service the UI uses (one value per run, Mann-Whitney
 * U, Hodges-Lehmann interval, practical floor, p adjusted across metrics). The outcome follows the
 * one rule of `@poolbench/stats` (`gateOutcome`): a `worse` verdict or a failed threshold is a
 * regression; an estimate worse beyond the floor without enough evidence is a suspected regression,
 * never a pass; failed thresholds are named with their runs. Invalid runs (`splitValidRuns`: the
 * load was not offered, samples were lost) are left out on both sides and named in `invalidRuns`.
 * Too few valid runs on a side, or too many crashed or invalid runs, make a cell `incomplete` with
 * the reason.
 *
 * Each cell is compared with its own pool config's baseline. Only where that config has none and
 * the scenario has exactly one baseline of that name is that other config's used (the answer names
 * it in `baseline.poolConfig`): a PR experiment may run a renamed copy of the config saved on main.
 *
 * `gateMetrics` limits the comparison to those tested metrics (p adjusted over them alone); the
 * answer's `gatedOn` says which metrics the verdict rests on either way.
 */
export async function compareWithBaseline(
  db: Db,
  teamId: string,
  experimentId: string,
  baselineName: string,
  gateMetrics?: readonly TestedRunMetricKey[],
  /** compare only these elapsed seconds [from, to) of every run */
  window: { from: number; to: number } | null = null,
) {
  const gatedOn = gatedMetricKeys(gateMetrics);
  const e = await experimentCells(db, teamId, experimentId);
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
    cells.push(
      await compareCell(db, teamId, e.id, { ...c, poolConfig, scenario }, baseItem, baseline, {
        metrics: gateMetrics ? gatedOn : undefined,
        window,
      }),
    );
  }
  const outcome = gateOutcome(
    cells.map((c) => ({
      state: c.state,
      hasBaseline: c.baseline !== null,
      candidateRuns: c.candidateRuns,
    })),
  );
  return {
    experimentId: e.id,
    baseline: baselineName,
    base: null,
    gatedOn,
    window,
    outcome,
    cells,
  };
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
