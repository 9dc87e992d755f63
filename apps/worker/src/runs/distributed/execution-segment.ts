/**
 * k6's execution segment of generator `index` out of `count` equal parts, with the sequence that
 * lists every part, so k6 divides VUs and arrival rates exactly as it defines (k6 docs,
 * "execution segments"): generator 1 of 3 runs `1/3:2/3` of `0,1/3,2/3,1`.
 */
export function executionSegmentOf(
  index: number,
  count: number,
): { segment: string; sequence: string } {
  if (!Number.isInteger(count) || count < 2)
    throw new RangeError(`count must be an integer >= 2, got ${count}`);
  if (!Number.isInteger(index) || index < 0 || index >= count)
    throw new RangeError(`index must be in 0..${count - 1}, got ${index}`);
  const point = (i: number) => (i === 0 ? '0' : i === count ? '1' : `${i}/${count}`);
  return {
    segment: `${point(index)}:${point(index + 1)}`,
    sequence: Array.from({ length: count + 1 }, (_, i) => point(i)).join(','),
  };
}
