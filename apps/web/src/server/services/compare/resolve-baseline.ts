import type { Db } from '@poolbench/db';
import type { Selection } from '~/lib/compare/selection';
import { defaultBaseline } from '../baselines/default-baseline';
import { loadGroups, type CompareGroup } from './load-groups';

/**
 * The selection's groups (every read scoped to the team) and its baseline as the compare view
 * picks it: the selection's own, else a saved baseline among the items, else the first. `saved` is
 * what the default lookup found (null when the selection named its baseline).
 */
export async function resolveBaseline(db: Db, teamId: string, selection: Selection) {
  const groups: CompareGroup[] = await loadGroups(db, teamId, selection.items);
  const named = selection.baseline !== null && selection.baseline !== undefined;
  const saved = named
    ? null
    : await defaultBaseline(
        db,
        teamId,
        selection.items,
        groups.map((g) => ({ targetId: g.targetId, scenarioId: g.scenarioId })),
      );
  const baselineIndex = Math.min(selection.baseline ?? saved?.index ?? 0, groups.length - 1);
  return { groups, baselineIndex, saved };
}
