import type { RouterOutputs } from '~/lib/trpc/types';

export type RepeatsNeededView = RouterOutputs['compare']['repeatsNeeded'];
type Group = { kind: 'run' | 'cell'; experimentId: string; repeats: number };

export interface ExtendOffer {
  experimentId: string;
  experimentName: string;
  addRepeats: number;
}

/**
 * Which experiments "Add repeats" can extend so the baseline and the candidate both reach
 * `perSide` runs: those of the two that are cells (single runs are not extended), finished, with
 * room left. Extending adds the same number of runs to every cell of an experiment, so it adds
 * what the side with fewer runs still lacks (at least one: the estimate may equal the runs there
 * are when the adjustment across metrics held the verdict back), within the experiment's limit.
 */
export function extendOffers(
  baseline: Group,
  candidate: Group,
  perSide: number,
  experiments: RepeatsNeededView['experiments'],
): ExtendOffer[] {
  const have = new Map<string, number>();
  for (const g of [baseline, candidate]) {
    if (g.kind !== 'cell') continue;
    have.set(g.experimentId, Math.min(have.get(g.experimentId) ?? Infinity, g.repeats));
  }
  const offers: ExtendOffer[] = [];
  for (const [id, runs] of have) {
    const e = experiments.find((x) => x.id === id);
    if (!e || e.running || e.maxAddRepeats < 1) continue;
    offers.push({
      experimentId: id,
      experimentName: e.name,
      addRepeats: Math.min(e.maxAddRepeats, Math.max(1, perSide - runs)),
    });
  }
  return offers;
}
