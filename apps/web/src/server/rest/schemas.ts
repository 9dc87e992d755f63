import { z } from 'zod';
import { hasUrlCredentials } from '@poolbench/contracts/net';
import { LoadGeneratorsSchema as SharedLoadGenerators } from '~/lib/schemas/experiment';

/*
 * The parts the REST API's request and response contracts share. Each resource's contracts and
 * operations live in resources/; the OpenAPI document is generated from these same schemas
 * (z.toJSONSchema), so it cannot drift from what the server accepts. Parts that are the same as a
 * tRPC procedure's (run progress, insights, verdicts, change estimates, windows, the scenario)
 * are its schemas, imported where they are used.
 */

export const ProblemSchema = z.object({
  type: z.string().describe('URI naming the problem type: https://poolbench.dev/problems/<code>'),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z
    .string()
    .describe('stable machine-readable code, e.g. token_revoked, scope_missing, validation_failed'),
  problems: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('one entry per invalid field'),
});

/**
 * For JSON Schema: a string that is not blank once trimmed (the server trims, then needs a
 * character) and has no control characters. ASCII and Unicode spaces, and the BOM, count as
 * blank, as String.prototype.trim says.
 */
const NOT_BLANK =
  '^[^\\u0000-\\u001f\\u007f]*[^\\s\\ufeff\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$';

/**
 * The server side of NOT_BLANK's "no control characters" (trim and min(1) are the rest): a NUL
 * would otherwise reach Postgres, which cannot store it in text, and fail as a server error.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const noControlCharacters = (s: string) => !CONTROL.test(s);

const CONTROL_MESSAGE = 'must not contain control characters';

/** A name or id as the API reads it: trimmed, not blank, at most `max` characters, no control characters. */
export const restName = (max: number, empty = 'is required') =>
  z
    .string()
    .trim()
    .min(1, empty)
    .max(max, `must be at most ${max} characters`)
    .refine(noControlCharacters, CONTROL_MESSAGE)
    .meta({ pattern: NOT_BLANK });

export const IdOrName = restName(120).describe('id or exact name');

export const LoadGeneratorsSchema = SharedLoadGenerators.describe(
  'workers (load generators) each run is split across with k6 execution segments; merged exactly',
);
/** Where a CI-started experiment came from; the CLI fills these from the CI's own variables. */
export const CiOriginFields = {
  commit: z
    .string()
    .trim()
    .min(1, 'is empty')
    .max(64, 'must be at most 64 characters')
    .regex(/^[A-Za-z0-9._/-]+$/, 'must be a commit id or ref (letters, digits, . _ / -)')
    .optional()
    .describe('the commit the experiment tests, e.g. a git SHA'),
  branch: restName(255, 'is empty')
    .optional()
    .describe('the branch (or merge request ref) it came from'),
  buildUrl: z
    .string()
    .trim()
    .max(2048, 'must be at most 2048 characters')
    .url('must be a URL')
    .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://')
    .refine((u) => !hasUrlCredentials(u), 'must not contain credentials (user:password@)')
    .optional()
    .describe('the CI job that started it (linked from the experiment list)'),
};

export const Ref = z.object({ id: z.string(), name: z.string() });

export const NullableRef = Ref.nullable();

export const Iso = z.string().describe('UTC timestamp, ISO 8601');

export const PositionInRoundSchema = z
  .number()
  .int()
  .describe(
    "the run's place in its round, 0 = first: among its experiment's runs of the same scenario and repeat, by sequence; with two configs counterbalanced, each is first in half the repeats",
  );
