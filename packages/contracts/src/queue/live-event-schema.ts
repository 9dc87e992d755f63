import { z } from 'zod';
import {
  fieldShape,
  seriesPointOf,
  SERIES_COUNT_FIELDS,
  SERIES_GAUGE_FIELDS,
  SERIES_LATENCY_FIELDS,
  SERIES_RESOURCE_FIELDS,
  type SeriesLoadRow,
  type SeriesResourceRow,
} from './series-fields';
import { RunStatusSchema } from '../run-statuses';

const runId = z.string().min(1);
/** epoch milliseconds, UTC */
const atMs = z.number().int().nonnegative();
const num = z.number().nullable();

/**
 * One second of a run as the charts draw it: load metrics from the k6 output extension joined
 * with the target's resource and pool samples of the same second. The run page builds the same
 * points from Postgres (history) and from live events (while running). Latencies in ms, null when
 * the second had no requests or the sampler had nothing.
 */
export const SeriesPointSchema = z.object({
  /**
   * seconds since the load started, 0-based; a distributed run's generators can start a moment
   * before the leader's first second, so its first points may be negative
   */
  second: z.number().int(),
  statusCounts: z.record(z.string(), z.number().int().nonnegative()),
  ...fieldShape(SERIES_COUNT_FIELDS, z.number().int().nonnegative()),
  ...fieldShape(SERIES_LATENCY_FIELDS, num),
  // optional: a worker of an older build sends points without them
  ...fieldShape(SERIES_GAUGE_FIELDS, num.optional()),
  /** summed over target instances */
  ...fieldShape(SERIES_RESOURCE_FIELDS, num),
  // added later than the others: a worker of an older build sends points without them
  ...fieldShape(['upstreamOpen', 'upstreamInUse', 'upstreamWaitMs'] as const, num.optional()),
});
export type SeriesPoint = z.infer<typeof SeriesPointSchema>;

/** One chart point from a second's load row and its summed resource row: the worker's live events and the web's history build it alike. */
export const toSeriesPoint = (
  load: SeriesLoadRow,
  resource: SeriesResourceRow | null | undefined,
): SeriesPoint => seriesPointOf(load, resource) as SeriesPoint;

export const LiveSecondEventSchema = z.object({
  type: z.literal('second'),
  runId,
  atMs,
  point: SeriesPointSchema,
});

/** A run changed status; `message` says why for failed/aborted. */
export const LiveStatusEventSchema = z.object({
  type: z.literal('status'),
  runId,
  status: RunStatusSchema,
  atMs,
  message: z.string().max(2000).optional(),
});

/** Sent every few seconds while a run is active, so the UI can tell a quiet run from a dead worker. */
export const LiveHeartbeatEventSchema = z.object({
  type: z.literal('heartbeat'),
  runId,
  atMs,
});

/** A message on `poolbench:run:<runId>`: JSON of one of these, discriminated on `type`. */
export const LiveEventSchema = z.discriminatedUnion('type', [
  LiveSecondEventSchema,
  LiveStatusEventSchema,
  LiveHeartbeatEventSchema,
]);
export type LiveEvent = z.infer<typeof LiveEventSchema>;
export type LiveSecondEvent = z.infer<typeof LiveSecondEventSchema>;
