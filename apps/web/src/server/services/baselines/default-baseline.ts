import type { Db } from '@poolbench/db';
import type { CompareItem } from '~/lib/compare/selection';
import { listBaselines } from './list-baselines';

const same = (a: CompareItem, b: CompareItem) =>
  a.kind === 'run'
    ? b.kind === 'run' && a.runId === b.runId
    : b.kind === 'cell' &&
      a.experimentId === b.experimentId &&
      a.poolConfigId === b.poolConfigId &&
      a.scenarioId === b.scenarioId;

/**
 * Comparisons default to a saved baseline: the index of the first picked item that is one (`main`
 * preferred), plus the saved baselines of the picked items' target and scenario that were not
 * picked, so the page can offer them.
 */
export async function defaultBaseline(
  db: Db,
  teamId: string,
  items: CompareItem[],
  pairs: Array<{ targetId: string; scenarioId: string | null }>,
) {
  const uniquePairs = [
    ...new Map(
      pairs.filter((p) => p.scenarioId).map((p) => [`${p.targetId}:${p.scenarioId}`, p]),
    ).values(),
  ];
  const saved = (await Promise.all(uniquePairs.map((p) => listBaselines(db, teamId, p)))).flat();
  saved.sort((a, b) => (a.name === 'main' ? -1 : 0) - (b.name === 'main' ? -1 : 0));
  for (const b of saved) {
    const i = items.findIndex((it) => same(it, b.item));
    if (i >= 0) return { index: i, name: b.name, available: saved };
  }
  return { index: null, name: null, available: saved };
}
