import { RESOURCE_FIELDS } from '@poolbench/contracts';
import type { ResourceSampleRow } from '../metrics/metrics-writer';
import type { ResourceRow } from './resource-sampler';

/** A sampler row as a ResourceSample row; `second` counts from the run's second 0 (unix second t0). */
export function toResourceSampleRow(runId: string, t0: number, r: ResourceRow): ResourceSampleRow {
  const row: ResourceSampleRow = {
    runId,
    second: r.unixSecond - t0,
    instance: r.instance,
    ts: new Date(r.unixSecond * 1000),
  };
  for (const k of RESOURCE_FIELDS) if (k !== 'rssBytes') row[k] = r[k];
  row.rssBytes = r.rssBytes === null ? null : BigInt(Math.round(r.rssBytes));
  return row;
}
