import { z } from 'zod';
import { LIMITS } from './limits';

/**
 * Flows: what a request may take from its response for later requests (extraction), what it
 * checks, and the per-VU or per-iteration data a scenario carries. All of it reaches the k6 script
 * as data (JSON literals and a data file), never as code: the script runtime interprets it.
 */

/** A variable name, used as `{{name}}` in paths, query values, header values and JSON bodies. */
export const VAR_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;
/** `{{name}}` in a string; the runtime replaces exactly these and leaves anything else alone. */
export const VAR_TOKEN_RE = /\{\{([A-Za-z_][A-Za-z0-9_]{0,31})\}\}/g;

export const VarNameSchema = z
  .string()
  .regex(VAR_NAME_RE, 'must be a letter or _ followed by up to 31 letters, digits or _');

// gjson paths as k6's Response.json(selector) reads them ("token", "data.items.0.id",
// "items.#.id"): printable ASCII without spaces or quotes keeps them readable and inert.
const JsonPathSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(256, 'must be at most 256 characters')
  .regex(
    /^[A-Za-z0-9_.#@*?\-[\]|=<>!%]+$/,
    'may contain letters, digits and _ . # @ * ? - [ ] only',
  );

const HeaderNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/, 'must be a valid HTTP header name');

/** A JavaScript regular expression, checked here so a bad one is a field error, not a k6 crash. */
const RegexSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(256, 'must be at most 256 characters')
  .refine((p) => {
    try {
      new RegExp(p);
      return true;
    } catch {
      return false;
    }
  }, 'is not a valid regular expression');

export const ExtractSchema = z.discriminatedUnion('from', [
  z.strictObject({
    name: VarNameSchema,
    from: z.literal('json'),
    /** gjson path into the JSON body, e.g. `token` or `data.user.id` */
    path: JsonPathSchema,
  }),
  z.strictObject({ name: VarNameSchema, from: z.literal('header'), header: HeaderNameSchema }),
  z.strictObject({
    name: VarNameSchema,
    from: z.literal('regex'),
    pattern: RegexSchema,
    /** capture group; 0 = the whole match */
    group: z.number().int('must be a whole number').min(0).max(9).default(1),
  }),
]);
export type Extract = z.infer<typeof ExtractSchema>;

const CheckValueSchema = z.union([
  z.string().max(1024, 'must be at most 1024 characters'),
  z.number().finite(),
  z.boolean(),
  z.null(),
]);

export const CheckSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('status'),
    equals: z.number().int('must be a whole number').min(100).max(599),
  }),
  z.strictObject({
    kind: z.literal('body-contains'),
    value: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  }),
  z.strictObject({ kind: z.literal('json-equals'), path: JsonPathSchema, value: CheckValueSchema }),
  z.strictObject({
    kind: z.literal('latency-below'),
    ms: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1 ms')
      .max(LIMITS.maxRequestTimeoutMs),
  }),
]);
export type Check = z.infer<typeof CheckSchema>;

/** The check's name in k6 (its `checks` metric tag) and in the run: short and stable. */
export function checkName(c: Check): string {
  switch (c.kind) {
    case 'status':
      return `status is ${c.equals}`;
    case 'body-contains':
      return `body contains ${JSON.stringify(c.value.slice(0, 40))}`;
    case 'json-equals':
      return `${c.path} equals ${JSON.stringify(c.value)}`;
    case 'latency-below':
      return `latency below ${c.ms} ms`;
  }
}

/**
 * A CSV file: a header row of variable names, then rows. RFC 4180: fields separated by commas,
 * optionally quoted with "", a quote inside quotes doubled, CRLF or LF line ends.
 */
export function parseCsv(text: string): { columns: string[]; rows: string[][] } {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const endRecord = () => {
    record.push(field);
    field = '';
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  while (i < src.length) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      i++;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\r' && src[i + 1] === '\n') {
      endRecord();
      i += 2;
    } else if (c === '\n' || c === '\r') {
      endRecord();
      i++;
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new Error('a quoted field is not closed');
  if (field !== '' || record.length > 0) endRecord();
  const [columns, ...rows] = records;
  if (!columns) throw new Error('needs a header row of column names');
  return { columns, rows };
}

export interface DataInput {
  format: 'csv' | 'json';
  content: string;
}

const readCache = new WeakMap<DataInput, { columns: string[]; rows: string[][] } | string>();

/**
 * A scenario's data as columns and rows, or why it cannot be read (one message). Read once per
 * data object: validation and the generator share the result.
 */
export function readData(d: DataInput): { columns: string[]; rows: string[][] } | string {
  const cached = readCache.get(d);
  if (cached !== undefined) return cached;
  const result = readDataUncached(d);
  readCache.set(d, result);
  return result;
}

function readDataUncached(d: DataInput): { columns: string[]; rows: string[][] } | string {
  let columns: string[];
  let rows: string[][];
  if (d.format === 'csv') {
    try {
      ({ columns, rows } = parseCsv(d.content));
    } catch (e) {
      return `is not valid CSV: ${(e as Error).message}`;
    }
    const width = columns.length;
    const bad = rows.findIndex((r) => r.length !== width);
    if (bad >= 0)
      return `row ${bad + 2} has ${rows[bad]!.length} fields; the header row has ${width}`;
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(d.content);
    } catch (e) {
      return `is not valid JSON: ${(e as Error).message}`;
    }
    const isRow = (x: unknown): x is Record<string, unknown> =>
      typeof x === 'object' && x !== null && !Array.isArray(x);
    if (!Array.isArray(parsed) || parsed.length === 0 || !isRow(parsed[0]))
      return 'must be a JSON array of objects, one per row';
    columns = Object.keys(parsed[0]);
    rows = [];
    for (const [i, item] of parsed.entries()) {
      if (!isRow(item)) return `row ${i} is not an object`;
      const keys = Object.keys(item);
      if (keys.length !== columns.length || !columns.every((c) => c in item))
        return `row ${i} has other fields than row 0 (${columns.join(', ')})`;
      const row: string[] = [];
      for (const c of columns) {
        const v = item[c];
        if (v !== null && typeof v === 'object')
          return `row ${i}, field ${c}: values must be strings, numbers or booleans`;
        row.push(v === null ? '' : String(v));
      }
      rows.push(row);
    }
  }
  if (columns.length === 0 || columns.length > LIMITS.maxDataColumns)
    return `needs 1 to ${LIMITS.maxDataColumns} columns; it has ${columns.length}`;
  const badName = columns.find((c) => !VAR_NAME_RE.test(c));
  if (badName !== undefined)
    return `column ${JSON.stringify(badName)} is not a variable name (a letter or _ followed by up to 31 letters, digits or _)`;
  const dup = columns.find((c, i) => columns.indexOf(c) !== i);
  if (dup !== undefined) return `column ${dup} appears twice`;
  if (rows.length === 0) return 'has no rows';
  if (rows.length > LIMITS.maxDataRows)
    return `has ${rows.length} rows; at most ${LIMITS.maxDataRows}`;
  return { columns, rows };
}

/**
 * The scenario's data: rows of named values, one row per VU (`per: "vu"`, VU n takes row n,
 * wrapping) or per iteration (`per: "iteration"`, the test's iteration i takes row i, wrapping).
 * Each column is a variable. Stored with the scenario as given; the worker writes the rows beside
 * the script.
 */
export const DataSchema = z
  .strictObject({
    format: z.enum(['csv', 'json']),
    /** CSV with a header row, or a JSON array of flat objects */
    content: z
      .string()
      .min(1, 'must not be empty')
      .refine(
        (s) => new TextEncoder().encode(s).length <= LIMITS.maxDataBytes,
        `must be at most ${LIMITS.maxDataBytes / 1024} KiB`,
      ),
    per: z.enum(['vu', 'iteration']).default('vu'),
  })
  .superRefine((d, ctx) => {
    const r = readData(d);
    if (typeof r === 'string') ctx.addIssue({ code: 'custom', path: ['content'], message: r });
  });
export type ScenarioData = z.output<typeof DataSchema>;

/** The `{{name}}` variables a string uses. */
export function variablesIn(s: string): string[] {
  return [...s.matchAll(VAR_TOKEN_RE)].map((m) => m[1]!);
}

/** Every string of a JSON value (keys and values), for finding the variables a body uses. */
export function jsonStrings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) jsonStrings(x, out);
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      jsonStrings(x, out);
    }
  return out;
}
