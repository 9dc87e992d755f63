import type { RunOrderName } from '@poolbench/contracts';

export interface Cell {
  poolConfigIndex: number;
  scenarioIndex: number;
  repeatIndex: number;
}

/**
 * The configs' order in round `round` of a counterbalanced experiment: a balanced Latin square
 * (Williams design) over `configs`, its rows taken in turn. Round 0 is 0, 1, …, configs − 1; over
 * every `configs` rounds each config runs at each position once, and over a whole cycle (`configs`
 * rounds when even, twice as many when odd, the second half the first reversed) each config
 * follows each other config once. Two configs: A B, B A, A B, B A, …
 */
export function roundOrder(configs: number, round: number): number[] {
  if (configs <= 1) return configs === 1 ? [0] : [];
  // Williams' first row 0, 1, k−1, 2, k−2, …; row r adds r to every entry (mod k)
  const first: number[] = [0];
  for (let lo = 1, hi = configs - 1; first.length < configs;) {
    first.push(lo++);
    if (first.length < configs) first.push(hi--);
  }
  // symbols relabelled so that row 0 reads 0, 1, 2, …: first appearance keeps the config order
  const relabel = new Array<number>(configs);
  first.forEach((symbol, position) => (relabel[symbol] = position));
  const cycle = configs % 2 === 0 ? configs : 2 * configs;
  const r = ((round % cycle) + cycle) % cycle;
  const row = first.map((symbol) => relabel[(symbol + r) % configs]!);
  return r < configs ? row : row.reverse();
}

/**
 * Execution order of an experiment's runs, from repeat `firstRepeat` on (an extension continues
 * where the experiment stopped). Counterbalanced (the default) and interleaved run every config
 * once per scenario and repeat before the next repeat, so drift of the machine over time spreads
 * over the configs instead of landing on whichever ran last; counterbalanced also turns the
 * configs' order from repeat to repeat (`roundOrder` of the repeat index), so no config is always
 * first after the pause before a round, or always second after another config warmed the target.
 * Blocked runs A A B B.
 */
export function runOrder(
  poolConfigs: number,
  scenarios: number,
  repeats: number,
  order: RunOrderName,
  firstRepeat = 0,
): Cell[] {
  const cells: Cell[] = [];
  const last = firstRepeat + repeats;
  if (order === 'blocked') {
    for (let s = 0; s < scenarios; s++)
      for (let c = 0; c < poolConfigs; c++)
        for (let r = firstRepeat; r < last; r++)
          cells.push({ poolConfigIndex: c, scenarioIndex: s, repeatIndex: r });
    return cells;
  }
  const identity = Array.from({ length: poolConfigs }, (_, c) => c);
  for (let r = firstRepeat; r < last; r++) {
    const configs = order === 'counterbalanced' ? roundOrder(poolConfigs, r) : identity;
    for (let s = 0; s < scenarios; s++)
      for (const c of configs) cells.push({ poolConfigIndex: c, scenarioIndex: s, repeatIndex: r });
  }
  return cells;
}

/**
 * Each run's position in its round, 0-based: its place by `sequence` among the runs of its
 * experiment with the same scenario and repeat index (one run per config). In a counterbalanced
 * experiment of two configs, A has 0 in rounds 0, 2, 4, … and 1 in the others. What an analysis
 * reads to see or take out an order effect.
 */
export function positionsInRound(
  runs: ReadonlyArray<{
    id: string;
    experimentId?: string;
    scenarioId: string | null;
    repeatIndex: number;
    sequence: number;
  }>,
): Map<string, number> {
  const rounds = new Map<string, Array<{ id: string; sequence: number }>>();
  for (const r of runs) {
    const key = `${r.experimentId ?? ''}\u0000${r.scenarioId ?? ''}\u0000${r.repeatIndex}`;
    const round = rounds.get(key) ?? [];
    round.push(r);
    rounds.set(key, round);
  }
  const out = new Map<string, number>();
  for (const round of rounds.values())
    round.sort((a, b) => a.sequence - b.sequence).forEach((r, position) => out.set(r.id, position));
  return out;
}
