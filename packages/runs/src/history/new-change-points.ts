import type { Db } from '@poolbench/db';
import { HISTORY_METRICS, type ChangePoint } from '@poolbench/contracts';
import { cellHistory, type CellRef } from './cell-history';
import { historyChangePoints } from './history-change-points';

/**
 * The change points of a cell's history that a firing makes visible: found in the history up to
 * and including the firing, and not (within one firing) in the history before it. Each change
 * point is news once, at the firing where it is first seen, however often later firings confirm
 * it, so a schedule never reports the same change twice. Empty when the firing has no valid
 * measured run of the cell.
 */
export async function changePointsNewAt(
  db: Db,
  teamId: string,
  cell: CellRef,
  firing: { id: string; createdAt: Date },
): Promise<ChangePoint[]> {
  const history = await cellHistory(db, teamId, cell, { upTo: firing.createdAt });
  const at = history.findIndex((f) => f.experimentId === firing.id);
  if (at < 0 || HISTORY_METRICS.every((m) => history[at]!.values[m] === null)) return [];
  const upTo = history.slice(0, at + 1);
  const index = (id: string) => upTo.findIndex((f) => f.experimentId === id);
  const seen = historyChangePoints(upTo.slice(0, at), HISTORY_METRICS);
  return historyChangePoints(upTo, HISTORY_METRICS).filter(
    (c) =>
      !seen.some(
        (b) =>
          b.metric === c.metric &&
          Math.abs(index(b.after.experimentId) - index(c.after.experimentId)) <= 1,
      ),
  );
}
