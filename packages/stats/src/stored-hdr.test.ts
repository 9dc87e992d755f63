import { describe, expect, it } from 'vitest';
import {
  createHistogram,
  encodeHistogram,
  histogramStatsMs,
  mergeHistograms,
  percentileMs,
} from './hdr';
import { mergeStoredHistograms } from './stored-hdr';

function seeded(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe('mergeStoredHistograms', () => {
  it('gives exactly what @poolbench/stats mergeHistograms gives, from the stored bytes', () => {
    const rnd = seeded(7);
    const encoded: string[] = [];
    for (let i = 0; i < 40; i++) {
      const h = createHistogram();
      // 1 µs .. ~20 min, heavy tail, including values in the first and last buckets
      for (let j = 0; j < 200; j++) h.recordValue(Math.max(1, Math.round(Math.exp(rnd() * 21))));
      if (i === 3) h.recordValueWithCount(1, 5);
      encoded.push(encodeHistogram(h));
    }
    const slow = mergeHistograms(encoded);
    const fast = mergeStoredHistograms([
      ...encoded.map((e) => new Uint8Array(Buffer.from(e, 'base64'))),
      null,
    ]);
    expect(fast.totalCount).toBe(slow.totalCount);
    expect(histogramStatsMs(fast)).toEqual(histogramStatsMs(slow));
    for (const p of [1, 10, 50, 90, 99, 99.9, 99.99, 100])
      expect(percentileMs(fast, p)).toBe(percentileMs(slow, p));
  });

  it('an empty input is an empty histogram', () => {
    expect(mergeStoredHistograms([]).totalCount).toBe(0);
  });
});
