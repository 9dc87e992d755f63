import { describe, expect, it } from 'vitest';
import type { SeriesPoint } from '@poolbench/contracts';
import { isPlainJson } from '~/server/api/fast-transformer';
import { downsample } from './downsample';

const point = (second: number, p99Ms: number | null, requests = 10): SeriesPoint => ({
  second,
  requests,
  failed: 0,
  statusCounts: { '200': requests },
  droppedIterations: 0,
  vus: 5,
  p50Ms: 1,
  p95Ms: 2,
  p99Ms,
  maxMs: p99Ms,
  meanMs: 1,
  connectingP95Ms: null,
  blockedP95Ms: null,
  cpuPercent: null,
  rssBytes: null,
  poolInUse: null,
  poolIdle: null,
  poolTotal: null,
  poolWaitCount: null,
  poolWaitMs: null,
  dbActive: null,
  dbIdle: null,
  dbTotal: null,
  dbNewConns: null,
});

describe('downsample', () => {
  it('leaves short runs untouched', () => {
    const pts = Array.from({ length: 120 }, (_, i) => point(i, 5));
    expect(downsample(pts, 600)).toBe(pts);
  });

  it('keeps a 15-minute run under the limit without losing a one-second spike or dip', () => {
    const pts = Array.from({ length: 900 }, (_, i) =>
      point(i, i === 777 ? 900 : 5, i === 123 ? 0 : 10),
    );
    const out = downsample(pts, 600);
    expect(out.length).toBeLessThanOrEqual(600);
    expect(Math.max(...out.map((p) => p.p99Ms ?? 0))).toBe(900);
    expect(Math.min(...out.map((p) => p.requests))).toBe(0);
    // every second falls in a bucket: the last bucket still reaches the end of the run
    expect(out.at(-1)!.second).toBeGreaterThan(890);
    expect(out.map((p) => p.second)).toEqual([...out.map((p) => p.second)].sort((a, b) => a - b));
  });

  it('shares no object between points, so the chart data goes out as plain JSON (no superjson reference bookkeeping)', () => {
    const out = downsample(
      Array.from({ length: 900 }, (_, i) => point(i, 5)),
      600,
    );
    expect(isPlainJson(out)).toBe(true);
  });

  it('treats missing samples as missing, not as zero', () => {
    const pts = Array.from({ length: 1000 }, (_, i) => point(i, i % 2 === 0 ? null : 7));
    expect(downsample(pts, 100).every((p) => p.p99Ms === 7)).toBe(true);
  });
});
