import { z } from 'zod';

// Ids only: everything else (targets, secrets, pool configs) is read from Postgres by the worker.
const id = z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters').regex(/^[A-Za-z0-9_-]+$/, 'must be an id (letters, digits, _ and -)');

export const RunJobSchema = z.strictObject({ runId: id });
export type RunJob = z.infer<typeof RunJobSchema>;

export const ScheduleJobSchema = z.strictObject({ scheduleId: id });
export type ScheduleJob = z.infer<typeof ScheduleJobSchema>;
