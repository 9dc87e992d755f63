import type { Db } from '@poolbench/db';
import { gateOutcome } from '@poolbench/stats';
import type { TestedRunMetricKey } from '@poolbench/contracts';
import { InvalidInputError } from '../errors';
import {
  compareCell,
  experimentCells,
  judgeCell,
  gatedMetricKeys,
  invalidRunsOf,
  usable,
} from './experiment-cells';

/**
 * Gates config A against config B inside one experiment: every other pool config's cell is
 * compared with the `base` pool config's cell of the same scenario (same runs interleaved in one
 * experiment, so no saved baseline and no drift between days). The answer has the shape of
 * `compareWithBaseline`'s, with `base` naming the reference config and each cell's `baseline`
 * pointing at that config's runs in this experiment. Invalid runs of either config are left out
 * and named, as `compareWithBaseline` does.
 */
export async function compareWithPoolConfig(
  db: Db,
  teamId: string,
  experimentId: string,
  baseRef: string,
  gateMetrics?: readonly TestedRunMetricKey[],
  window: { from: number; to: number } | null = null,
) {
  const gatedOn = gatedMetricKeys(gateMetrics);
  const e = await experimentCells(db, teamId, experimentId);
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
      await compareCell(
        db,
        teamId,
        e.id,
        { ...c, poolConfig, scenario },
        reference,
        baseline,
        { metrics: gateMetrics ? gatedOn : undefined, window },
        referenceInvalid,
      ),
    );
  }
  // the base config is in this experiment: there is always a baseline, maybe without runs yet
  const outcome = gateOutcome(
    cells.map((c) => ({
      state: c.state,
      hasBaseline: true,
      candidateRuns: Math.min(c.candidateRuns, c.baseline.runs),
    })),
  );
  return { experimentId: e.id, baseline: base.name, base, gatedOn, window, outcome, cells };
}
