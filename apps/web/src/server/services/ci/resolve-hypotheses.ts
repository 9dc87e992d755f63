import type { Db } from '@poolbench/db';
import { EXPERIMENT_MATRIX_SELECT } from '@poolbench/runs';
import type { Hypothesis } from '@poolbench/scenarios';
import type { RestHypothesis } from '~/server/rest/resources/experiment-requests';
import { InvalidInputError } from '../errors';

interface Named {
  id: string;
  name: string;
}

/**
 * REST hypotheses name their cells as a CI file does: pool config and scenario by id or exact
 * name, the scenario optional when the experiment has one. Resolved against the experiment's own
 * pool configs and scenarios; an unknown or ambiguous name is an error naming its field.
 */
export function resolveRestHypotheses(
  list: RestHypothesis[] | undefined,
  configs: Named[],
  scenarios: Named[],
): Hypothesis[] | undefined {
  if (!list) return undefined;
  const pick = (rows: Named[], ref: string | undefined, path: string, what: string): string => {
    if (ref === undefined) {
      if (rows.length === 1) return rows[0]!.id;
      throw new InvalidInputError(
        path,
        `is required: the experiment has ${rows.length} ${what}s (${rows.map((r) => r.name).join(', ')})`,
      );
    }
    const row = rows.find((r) => r.id === ref) ?? rows.find((r) => r.name === ref);
    if (!row)
      throw new InvalidInputError(
        path,
        `"${ref}" is not one of the experiment's ${what}s (${rows.map((r) => r.name).join(', ')})`,
      );
    return row.id;
  };
  return list.map((h, i) => {
    const cell = (side: 'base' | 'candidate') => ({
      poolConfigId: pick(
        configs,
        h[side].poolConfig,
        `hypotheses.${i}.${side}.poolConfig`,
        'pool config',
      ),
      scenarioId: pick(scenarios, h[side].scenario, `hypotheses.${i}.${side}.scenario`, 'scenario'),
    });
    const { base: _b, candidate: _c, ...rest } = h;
    return { ...rest, base: cell('base'), candidate: cell('candidate') };
  });
}

/** A saved experiment's pool configs and scenarios, for resolving hypotheses of its rerun. */
export async function experimentCells(
  db: Db,
  experimentId: string,
): Promise<{ configs: Named[]; scenarios: Named[] }> {
  const e = await db.experiment.findUniqueOrThrow({
    where: { id: experimentId },
    select: {
      ...EXPERIMENT_MATRIX_SELECT,
    },
  });
  return {
    configs: e.poolConfigs.map((p) => p.poolConfig),
    scenarios: e.scenarios.map((s) => s.scenario),
  };
}
