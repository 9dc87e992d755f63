export interface Ranking {
  /** Mid-ranks (1-based), in input order. */
  ranks: number[];
  /** Sizes of the groups of equal values that have more than one member. */
  tieSizes: number[];
}

/** Mid-ranks of the values, as used by rank tests (ties share the mean of their ranks). */
export function rank(values: readonly number[]): Ranking {
  const order = values
    .map((_, i) => i)
    .sort((a, b) => (values[a] as number) - (values[b] as number));
  const ranks = new Array<number>(values.length);
  const tieSizes: number[] = [];
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1] as number] === values[order[i] as number])
      j++;
    const mid = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k] as number] = mid;
    if (j > i) tieSizes.push(j - i + 1);
    i = j + 1;
  }
  return { ranks, tieSizes };
}

/** Σ(t³ − t) over tie groups: the tie term in the variance of rank statistics. */
export function tieTerm(tieSizes: readonly number[]): number {
  let s = 0;
  for (const t of tieSizes) s += t * t * t - t;
  return s;
}

/**
 * Standard deviation of U under H0 with the tie correction
 * σ² = m·n/12 · ((N + 1) − Σ(t³ − t) / (N(N − 1))).
 */
export function sigmaU(m: number, n: number, tieSum: number): number {
  const N = m + n;
  return Math.sqrt(((m * n) / 12) * (N + 1 - tieSum / (N * (N - 1))));
}
