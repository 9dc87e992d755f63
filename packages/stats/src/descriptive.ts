function sortedCopy(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function requireValues(values: readonly number[], what: string): void {
  if (values.length === 0) throw new RangeError(`${what} of an empty sample is undefined`);
}

/** Smallest value. Throws on an empty sample. */
export function min(values: readonly number[]): number {
  requireValues(values, 'min');
  let m = Number.POSITIVE_INFINITY;
  for (const v of values) if (v < m) m = v;
  return m;
}

/** Largest value. Throws on an empty sample. */
export function max(values: readonly number[]): number {
  requireValues(values, 'max');
  let m = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > m) m = v;
  return m;
}

/** Arithmetic mean. Throws on an empty sample. */
export function mean(values: readonly number[]): number {
  requireValues(values, 'mean');
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** Type-7 quantile of an already ascending array (no copy, no checks). */
export function quantileSorted(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a + (h - lo) * (b - a);
}

/**
 * Sample quantile, Hyndman & Fan (1996) type 7: linear interpolation between order statistics at
 * h = (n - 1)·p. It is the default of R's `quantile`, NumPy's `quantile` and spreadsheets, so the
 * numbers in the UI match what users get when they check them elsewhere.
 */
export function quantile(values: readonly number[], p: number): number {
  requireValues(values, 'quantile');
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile probability must be in [0, 1], got ${p}`);
  return quantileSorted(sortedCopy(values), p);
}

/** Several type-7 quantiles with one sort. */
export function quantiles(values: readonly number[], ps: readonly number[]): number[] {
  requireValues(values, 'quantiles');
  const sorted = sortedCopy(values);
  return ps.map((p) => {
    if (!(p >= 0 && p <= 1))
      throw new RangeError(`quantile probability must be in [0, 1], got ${p}`);
    return quantileSorted(sorted, p);
  });
}

/** Median of an already ascending array: the middle value, or the mean of the two middle ones. */
export function medianSorted(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  // (a + b) / 2 rather than a + (b − a) / 2: it is exactly antisymmetric under negation, which
  // keeps a swapped comparison an exact mirror image.
  if (sorted.length % 2 === 1) return sorted[mid] as number;
  return ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Median (equal to the type-7 quantile at 0.5). */
export function median(values: readonly number[]): number {
  requireValues(values, 'median');
  return medianSorted(sortedCopy(values));
}

/** Interquartile range Q3 − Q1 with type-7 quartiles (R's `IQR` default). */
export function iqr(values: readonly number[]): number {
  const [q1, q3] = quantiles(values, [0.25, 0.75]) as [number, number];
  return q3 - q1;
}

/**
 * Median absolute deviation from the median, times `constant`. The default 1.4826 makes it a
 * consistent estimate of the standard deviation for normal data, as R's `mad` does; pass 1 for
 * the raw MAD.
 */
export function mad(values: readonly number[], constant = 1.4826): number {
  const m = median(values);
  return constant * median(values.map((v) => Math.abs(v - m)));
}

export interface Summary {
  n: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
  iqr: number;
  /** Scaled MAD (constant 1.4826). */
  mad: number;
}

/** Five-number summary plus mean, IQR and MAD, as the UI shows beside a metric. */
export function summarize(values: readonly number[]): Summary {
  requireValues(values, 'summary');
  const sorted = sortedCopy(values);
  const q1 = quantileSorted(sorted, 0.25);
  const q3 = quantileSorted(sorted, 0.75);
  return {
    n: sorted.length,
    min: sorted[0] as number,
    q1,
    median: medianSorted(sorted),
    q3,
    max: sorted[sorted.length - 1] as number,
    mean: mean(sorted),
    iqr: q3 - q1,
    mad: mad(sorted),
  };
}
