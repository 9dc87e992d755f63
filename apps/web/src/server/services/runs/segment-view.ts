import { parseRunSegment, type Prisma } from '@poolbench/db';

/** What the run page and REST show of each load generator of a distributed run. */
export const SEGMENT_VIEW_SELECT = {
  index: true,
  workerId: true,
  status: true,
  requests: true,
  loadMs: true,
  startSkewMs: true,
  cpuAvgPercent: true,
  cpuMaxPercent: true,
  rssMaxBytes: true,
  delivery: true,
  disturbance: true,
  errorMessage: true,
} satisfies Prisma.RunSegmentSelect;

type SegmentRow = Prisma.RunSegmentGetPayload<{ select: typeof SEGMENT_VIEW_SELECT }>;

/**
 * A generator as the views show it: memory as a number (bigint does not travel as JSON; a
 * generator's fits a double), its late samples and the CPU used beside it from its JSON columns.
 */
export function segmentView(row: SegmentRow) {
  const { delivery, disturbance, ...s } = parseRunSegment(row);
  return {
    ...s,
    rssMaxBytes: s.rssMaxBytes === null ? null : Number(s.rssMaxBytes),
    lateSamples: delivery?.lateSamples ?? null,
    outsideCpuPercent: disturbance?.outsideCpuPercent ?? null,
  };
}
