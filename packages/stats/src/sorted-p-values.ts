/**
 * The p-values that are there (nulls are metrics without a test), each with its index, smallest
 * first; a value outside [0, 1] is refused, naming its index.
 */
export function sortedPresent(pValues: readonly (number | null)[]): { p: number; i: number }[] {
  const present = pValues.flatMap((p, i) => {
    if (p === null) return [];
    if (!(p >= 0 && p <= 1)) throw new RangeError(`p-value ${i} is ${p}; it must be in [0, 1]`);
    return [{ p, i }];
  });
  return present.sort((a, b) => a.p - b.p);
}
