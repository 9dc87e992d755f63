// HDR histogram helpers shared by the k6 runner and the compare views.
// Histograms hold microseconds (1 µs .. 1 h, 3 significant digits, the
// shape PoolBench's k6 output writes); every statistic comes out in ms.
import {
  build,
  decodeFromCompressedBase64,
  encodeIntoCompressedBase64,
  type Histogram,
} from 'hdr-histogram-js';
import { TREND_TOP, type HdrStatsMs } from '@poolbench/contracts';

export type { Histogram };
export type { HdrStatsMs };

export const HDR_LOWEST_US = 1;
export const HDR_HIGHEST_US = TREND_TOP * 1000;
export const HDR_SIGNIFICANT_DIGITS = 3;

/** An empty histogram of PoolBench's shape; 64-bit counts so merges of long runs never overflow. */
export function createHistogram(): Histogram {
  return build({
    bitBucketSize: 64,
    autoResize: false,
    lowestDiscernibleValue: HDR_LOWEST_US,
    highestTrackableValue: HDR_HIGHEST_US,
    numberOfSignificantValueDigits: HDR_SIGNIFICANT_DIGITS,
  });
}

/** Decodes a base64 V2-compressed histogram (as written by hdrhistogram-go or Java). */
export function decodeHistogram(base64: string): Histogram {
  try {
    return decodeFromCompressedBase64(base64, 32, false);
  } catch (err) {
    throw new Error(`not a base64 V2-compressed HDR histogram: ${(err as Error).message}`);
  }
}

export function encodeHistogram(histogram: Histogram): string {
  return encodeIntoCompressedBase64(histogram);
}

/** Adds one encoded or decoded histogram into `target` (exact: counts add bucket by bucket). */
export function mergeInto(target: Histogram, source: string | Histogram): Histogram {
  target.add(typeof source === 'string' ? decodeHistogram(source) : source);
  return target;
}

/** Merges any window of histograms (e.g. the seconds of a run, or several runs) into one. */
export function mergeHistograms(sources: Iterable<string | Histogram>): Histogram {
  const merged = createHistogram();
  for (const s of sources) mergeInto(merged, s);
  return merged;
}

/** mergeHistograms, re-encoded for storage. */
export function mergeEncodedHistograms(sources: Iterable<string>): string {
  return encodeHistogram(mergeHistograms(sources));
}

/** Value at any percentile (0..100) in ms, or undefined when the histogram is empty. */
export function percentileMs(histogram: Histogram, percentile: number): number | undefined {
  if (histogram.totalCount === 0) return undefined;
  if (!(percentile >= 0 && percentile <= 100))
    throw new RangeError(`percentile must be in 0..100, got ${percentile}`);
  return histogram.getValueAtPercentile(percentile) / 1000;
}

/** count/min/max/mean/p50..p99.9 in ms, or null for an empty histogram (no value is not 0 ms). */
export function histogramStatsMs(histogram: Histogram): HdrStatsMs | null {
  const count = histogram.totalCount;
  if (count === 0) return null;
  const at = (p: number) => histogram.getValueAtPercentile(p) / 1000;
  return {
    count,
    min: at(0),
    // at(100), not maxValue: the same bucket-edge value whether recorded here or decoded, as in Go.
    max: at(100),
    mean: histogram.mean / 1000,
    p50: at(50),
    p90: at(90),
    p95: at(95),
    p99: at(99),
    p999: at(99.9),
  };
}
