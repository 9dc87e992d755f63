import { z } from 'zod';

export const RUN_STATUSES = ['queued', 'starting', 'running', 'succeeded', 'failed', 'aborted', 'canceled'] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

const runId = z.string().min(1);
/** epoch milliseconds, UTC */
const atMs = z.number().int().nonnegative();
const nonNeg = z.number().nonnegative();

/**
 * One second of a running run, as the worker publishes it (after the k6 output extension's line
 * and the samplers for that second). Latencies in ms, null when the second had no requests.
 */
export const LiveSecondEventSchema = z.object({
  type: z.literal('second'),
  runId,
  /** seconds since the load started, 0-based */
  second: z.number().int().nonnegative(),
  atMs,
  requests: z.number().int().nonnegative(),
  failedRequests: z.number().int().nonnegative(),
  droppedIterations: z.number().int().nonnegative().default(0),
  vus: z.number().int().nonnegative().optional(),
  p50Ms: nonNeg.nullable(),
  p95Ms: nonNeg.nullable(),
  p99Ms: nonNeg.nullable(),
  maxMs: nonNeg.nullable(),
  /** summed over target instances */
  targetCpuPercent: nonNeg.optional(),
  targetRssBytes: nonNeg.optional(),
  poolAcquiredConns: nonNeg.optional(),
  poolTotalConns: nonNeg.optional(),
  dbConnections: nonNeg.optional(),
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
