import type { RunDelivery } from '@poolbench/contracts';

interface SegmentRecord<D, B> {
  index: number;
  loadStartedAt: Date | null;
  delivery: RunDelivery | null;
  disturbance: D | null;
  disturbanceBeforeStart: B | null;
}

/**
 * What a distributed run records of its generators' machines, in the shape a single run records
 * its own: late samples summed over the generators that sent load (unknown when one of their
 * outputs did not end cleanly), and the CPU used beside the most disturbed generator, which names
 * its segment: a run is no more trustworthy than its busiest load generator.
 */
export function segmentMachines<
  D extends { outsideCpuPercent: number },
  B extends { outsideCpuPercent: number },
>(
  segments: readonly SegmentRecord<D, B>[],
): {
  delivery: RunDelivery | null;
  disturbance: (D & { segment: number }) | null;
  disturbanceBeforeStart: (B & { segment: number }) | null;
} {
  const loaded = segments.filter((s) => s.loadStartedAt !== null);
  const deliveries = loaded.map((s) => s.delivery);
  const known = deliveries.filter((d): d is RunDelivery => d !== null);
  const lags = known.flatMap((d) => (d.maxLagMs === null ? [] : [d.maxLagMs]));
  const graces = known.flatMap((d) => (d.graceMs === null ? [] : [d.graceMs]));
  const delivery =
    known.length > 0 && known.length === deliveries.length
      ? {
          lateSamples: known.reduce((n, d) => n + d.lateSamples, 0),
          lateRequests: known.reduce((n, d) => n + d.lateRequests, 0),
          maxLagMs: lags.length ? Math.max(...lags) : null,
          graceMs: graces.length ? Math.max(...graces) : null,
        }
      : null;
  return {
    delivery,
    disturbance: worst(segments, (s) => s.disturbance),
    disturbanceBeforeStart: worst(segments, (s) => s.disturbanceBeforeStart),
  };
}

function worst<S extends { index: number }, T extends { outsideCpuPercent: number }>(
  segments: readonly S[],
  of: (s: S) => T | null,
): (T & { segment: number }) | null {
  let out: (T & { segment: number }) | null = null;
  for (const s of segments) {
    const d = of(s);
    if (d && (!out || d.outsideCpuPercent > out.outsideCpuPercent))
      out = { ...d, segment: s.index };
  }
  return out;
}
