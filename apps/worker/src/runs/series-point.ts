import { toSeriesPoint as pointOf, type SeriesPoint } from '@poolbench/contracts';
import { parseRunSecond } from '@poolbench/db';
import type { ResourceRow } from '../sampling/resource-sampler';
import type { RunSecondRow } from '../metrics/metrics-writer';

/** Joins one second's load row with the target's summed resource row into what the charts draw. */
export function toSeriesPoint(s: RunSecondRow, r: ResourceRow | undefined): SeriesPoint {
  return pointOf(
    { ...parseRunSecond(s), vus: s.vus ?? 0, droppedIterations: s.droppedIterations ?? 0 },
    r,
  );
}
