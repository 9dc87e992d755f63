import { z } from 'zod';

export const InstallationMeSchema = z.object({
  /** the caller may open and close ranges for every team */
  admin: z.boolean(),
});

export const OpenedRangesSchema = z.array(
  z.object({
    id: z.string(),
    cidr: z.string(),
    note: z.string().nullable(),
    createdAt: z.date(),
    /** e.g. "16,777,216 addresses, loopback" */
    holds: z.string(),
  }),
);
export const OpenedRangeSchema = z.object({ id: z.string(), cidr: z.string() });
export const InstallationDoneSchema = z.void();
