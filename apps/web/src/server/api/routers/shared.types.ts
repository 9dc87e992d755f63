import { z } from 'zod';
import { RunStatusSchema } from '@poolbench/contracts';

/** Parts several procedures' answers share (documenso's `.types.ts` pattern). */
export const RefSchema = z.object({ id: z.string(), name: z.string() });

/** The columns of a run every run row of an answer carries (lists, the run page, an experiment's runs). */
export const RunRowFields = {
  id: z.string(),
  status: RunStatusSchema,
  repeatIndex: z.number().int(),
  sequence: z.number().int(),
  queuedAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  errorMessage: z.string().nullable(),
};
