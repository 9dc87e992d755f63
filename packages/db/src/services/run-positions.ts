import type { DbOrTx } from '../client';
import { positionsInRound } from './run-order';

/**
 * The position in its round (`positionsInRound`) of each of these runs, read with the other runs
 * of their rounds; an unknown id is left out. For answers that hold runs without their
 * experiment's other runs (a run, an export).
 */
export async function readPositionsInRound(
  db: DbOrTx,
  runIds: readonly string[],
): Promise<Map<string, number>> {
  if (runIds.length === 0) return new Map();
  const runs = await db.run.findMany({
    where: { id: { in: [...runIds] } },
    select: { experimentId: true, scenarioId: true, repeatIndex: true },
  });
  if (runs.length === 0) return new Map();
  const wanted = new Map(
    runs.map((r) => [`${r.experimentId} ${r.scenarioId} ${r.repeatIndex}`, r]),
  );
  const rounds = await db.run.findMany({
    where: { OR: [...wanted.values()] },
    select: { id: true, experimentId: true, scenarioId: true, repeatIndex: true, sequence: true },
  });
  const all = positionsInRound(rounds);
  return new Map(runIds.flatMap((id) => (all.has(id) ? [[id, all.get(id)!] as const] : [])));
}
