// Server-only (node:zlib): imported as `@poolbench/stats/stored`, never from the package index,
// which client components of the web app also import.
import { inflateSync } from 'node:zlib';
import {
  createHistogram,
  decodeHistogram,
  HDR_LOWEST_US,
  HDR_SIGNIFICANT_DIGITS,
  type Histogram,
} from './hdr';

const COMPRESSED_COOKIE_BASE = 0x1c849304;
const HEADER_BYTES = 40;
// PoolBench histograms: 1 µs .. 1 h at 3 significant digits -> 2048 sub-buckets, unit magnitude 0.
const SUB_BUCKET_HALF_MAGNITUDE = 10;
const SUB_BUCKET_HALF = 1 << SUB_BUCKET_HALF_MAGNITUDE;

/** Value (µs) at the start of counts-array index `i` for PoolBench's histogram shape. */
function valueFromIndex(i: number): number {
  let bucket = (i >> SUB_BUCKET_HALF_MAGNITUDE) - 1;
  let sub = (i & (SUB_BUCKET_HALF - 1)) + SUB_BUCKET_HALF;
  if (bucket < 0) {
    sub -= SUB_BUCKET_HALF;
    bucket = 0;
  }
  return sub * 2 ** bucket;
}

/**
 * Adds one V2-compressed histogram's counts into `acc`, index by index. Returns false when the
 * histogram has another shape (the caller then takes the slow, general path).
 */
function addCounts(bytes: Uint8Array, acc: Float64Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if ((view.getInt32(0) & ~0xf0) !== COMPRESSED_COOKIE_BASE) return false;
  const len = view.getInt32(4);
  const raw = inflateSync(bytes.subarray(8, 8 + len));
  const h = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const payloadLength = h.getInt32(4);
  if (h.getInt32(8) !== 0 && h.getInt32(8) !== 1) return false; // normalizing offset unsupported
  if (h.getInt32(12) !== HDR_SIGNIFICANT_DIGITS || Number(h.getBigInt64(16)) !== HDR_LOWEST_US)
    return false;
  let pos = HEADER_BYTES;
  const end = HEADER_BYTES + payloadLength;
  let index = 0;
  while (pos < end) {
    // LEB128 (max 9 bytes), then ZigZag; numbers stay exact below 2^53
    let value = 0;
    let scale = 1;
    for (let b = 0; b < 9; b++) {
      const byte = raw[pos++]!;
      if (b === 8) {
        value += byte * scale;
        break;
      }
      value += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) break;
    }
    const decoded = value % 2 === 0 ? value / 2 : -(value + 1) / 2;
    if (decoded < 0) index += -decoded;
    else {
      if (index >= acc.length) throw new RangeError('histogram value beyond 1 h');
      acc[index++]! += decoded;
    }
  }
  return true;
}

const COUNTS_LENGTH = 23 * SUB_BUCKET_HALF; // enough for 3.6e9 µs

/**
 * Merges stored per-second histograms (the raw bytes of RunSecond.*Hist) into one stats Histogram.
 * Same result as `mergeHistograms` (a test checks it), about 20x faster:
 * it inflates with node:zlib and adds counts straight from the wire format instead of building a
 * full histogram object per second. Percentiles are then read with the stats helpers.
 */
export function mergeStoredHistograms(sources: Iterable<Uint8Array | null>): Histogram {
  const acc = new Float64Array(COUNTS_LENGTH);
  const fallback: Histogram[] = [];
  for (const bytes of sources) {
    if (!bytes || bytes.byteLength < 8) continue;
    if (!addCounts(bytes, acc))
      fallback.push(decodeHistogram(Buffer.from(bytes).toString('base64')));
  }
  const out = createHistogram();
  for (let i = 0; i < acc.length; i++) {
    const c = acc[i]!;
    if (c > 0) out.recordValueWithCount(valueFromIndex(i), c);
  }
  for (const f of fallback) out.add(f);
  return out;
}
