import { z } from 'zod';

// Ids only: everything else (targets, secrets, pool configs) is read from Postgres by the worker.
const id = z
  .string()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an id (letters, digits, _ and -)');

/**
 * `segment` (1-15): a distributed run's generator job for that k6 execution segment; the run's own
 * job (no segment) is its leader, which takes segment 0 and enqueues the others.
 */
export const RunJobSchema = z.strictObject({
  runId: id,
  segment: z.number().int().min(1).max(15).optional(),
});
export type RunJob = z.infer<typeof RunJobSchema>;

export const ScheduleJobSchema = z.strictObject({ scheduleId: id });
export type ScheduleJob = z.infer<typeof ScheduleJobSchema>;
