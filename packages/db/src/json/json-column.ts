import { type z } from 'zod';
import type { Prisma } from '../generated/prisma/client';

/** Where a JSON value lives: reported with the value's problems when it no longer parses. */
export interface JsonColumnRef {
  model: string;
  column: string;
  id: string;
}

export interface CorruptJsonReport extends JsonColumnRef {
  problems: string[];
}

type Reporter = (report: CorruptJsonReport) => void;

const logReporter: Reporter = (r) => {
  console.warn(
    `[db] ${r.model}.${r.column} of ${r.model.toLowerCase()} ${r.id} does not parse (${r.problems.join('; ')}); shown as missing`,
  );
};
let reporter: Reporter = logReporter;

/** Where corrupt rows are reported (default: one warning line with id and column); tests collect them. */
export function onCorruptJson(next: Reporter | null): void {
  reporter = next ?? logReporter;
}

const problemsOf = (err: z.ZodError) =>
  err.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(value)'}: ${i.message}`);

/**
 * The one read point of a JSON column: the value parsed by its schema, or `fallback` when it no
 * longer parses (an old or hand-edited row). A corrupt row is reported with its id and column
 * and never crashes the page that reads it.
 */
export function readJson<S extends z.ZodType, F = null>(
  schema: S,
  value: unknown,
  ref: JsonColumnRef,
  fallback: F = null as F,
): z.output<S> | F {
  if (value === null || value === undefined) return fallback;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  reporter({ ...ref, problems: problemsOf(parsed.error) });
  return fallback;
}

/**
 * The one write point of a JSON column: the value checked against its schema before it is stored,
 * so nothing unreadable is ever written. Throws naming the column (a bug, not user input: user
 * input was validated by the request's own schema before it got here).
 */
export function writeJson<S extends z.ZodType>(
  schema: S,
  value: unknown,
  ref: { model: string; column: string },
): Prisma.InputJsonValue {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new Error(
      `refusing to store ${ref.model}.${ref.column}: ${problemsOf(parsed.error).join('; ')}`,
    );
  // Prisma's JSON input type is structural over JSON values; the schema above has just checked it.
  return parsed.data as Prisma.InputJsonValue;
}
