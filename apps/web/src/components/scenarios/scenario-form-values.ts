import { z } from 'zod';
import { TEMPLATE_IDS, type TemplateId } from '@poolbench/scenarios';
import { ScenarioSaveSchema } from '~/lib/schemas/scenario';
import { serverSchemaResolver } from '~/lib/forms/server-schema-resolver';

/** A value a flow step takes from its response (ExtractSchema), as the editor holds it. */
export interface ExtractRow {
  name: string;
  from: 'json' | 'header' | 'regex';
  /** the JSON path, header name or regular expression */
  expr: string;
  group?: number;
}

/** A check on a response (CheckSchema); `value` is text, read per kind when saved. */
export interface CheckRow {
  kind: 'status' | 'body-contains' | 'json-equals' | 'latency-below';
  /** json-equals: the JSON path */
  path?: string;
  value: string;
}

/** A request as the editor holds it: query and headers as rows, the body as bytes or JSON text. */
export interface RequestRow {
  method: string;
  path: string;
  query: Array<{ key: string; value: string }>;
  bodyBytes?: number;
  /** a JSON body, as text; empty for none */
  jsonBody?: string;
  weight?: number;
  name?: string;
  headers?: Array<{ key: string; value: string }>;
  extract?: ExtractRow[];
  checks?: CheckRow[];
  thinkTimeMs?: number;
  /**
   * The stored request's fields the editor has no control for (timeout, priority, random query
   * values, a bytes body's content type), put back unchanged when it is saved.
   */
  kept?: Record<string, unknown>;
}

/** A scenario's data file as the editor holds it (DataSchema). */
export interface DataValues {
  format: 'csv' | 'json';
  content: string;
  per: 'vu' | 'iteration';
}

/** The scenario editor's values (react-hook-form); `toSaveInput` makes them scenario.create's body. */
export interface ScenarioFormValues {
  name: string;
  template: TemplateId;
  params: Record<string, unknown>;
  requests: RequestRow[];
  thresholds: Array<{ metric: string; expr: string }>;
  readyPath: string;
  /** the requests run in order as the steps of each iteration */
  flow?: boolean;
  data?: DataValues | null;
}

const EditorSeed = z.looseObject({
  template: z.enum(TEMPLATE_IDS),
  params: z.record(z.string(), z.unknown()).default({}),
  requests: z.array(z.unknown()).catch([]),
  thresholds: z.array(z.looseObject({ metric: z.string(), expr: z.string() })).optional(),
  readyPath: z.string().optional(),
  flow: z.boolean().optional().catch(undefined),
  data: z
    .object({
      format: z.enum(['csv', 'json']),
      content: z.string(),
      per: z.enum(['vu', 'iteration']).default('vu'),
    })
    .optional()
    .catch(undefined),
});
const StoredRequest = z.looseObject({
  method: z.string().optional(),
  path: z.string().optional(),
  query: z.record(z.string(), z.unknown()).optional(),
  body: z
    .looseObject({
      kind: z.string().optional(),
      sizeBytes: z.number().optional(),
      value: z.unknown().optional(),
    })
    .optional(),
  weight: z.number().optional(),
  name: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional().catch(undefined),
  extract: z
    .array(z.looseObject({ name: z.string(), from: z.string() }))
    .optional()
    .catch(undefined),
  checks: z
    .array(z.looseObject({ kind: z.string() }))
    .optional()
    .catch(undefined),
  thinkTimeMs: z.number().optional(),
});
const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

function extractRow(e: Record<string, unknown>): ExtractRow {
  const from = e.from === 'header' || e.from === 'regex' ? e.from : 'json';
  const expr = from === 'json' ? e.path : from === 'header' ? e.header : e.pattern;
  return {
    name: text(e.name),
    from,
    expr: text(expr),
    ...(typeof e.group === 'number' ? { group: e.group } : {}),
  };
}

function checkRow(c: Record<string, unknown>): CheckRow {
  switch (c.kind) {
    case 'status':
      return { kind: 'status', value: text(c.equals) };
    case 'latency-below':
      return { kind: 'latency-below', value: text(c.ms) };
    case 'json-equals':
      return { kind: 'json-equals', path: text(c.path), value: JSON.stringify(c.value ?? null) };
    default:
      return { kind: 'body-contains', value: text(c.value) };
  }
}

/** The saved scenario as the editor starts from it; a row from an older schema still opens. */
export function seedOf(scenario: unknown) {
  const s = EditorSeed.safeParse(scenario).data;
  if (!s) return null;
  const requests = s.requests.map((raw): RequestRow => {
    const r = StoredRequest.safeParse(raw).data ?? {};
    const {
      method,
      path,
      query,
      body,
      weight,
      name,
      headers,
      extract,
      checks,
      thinkTimeMs,
      ...kept
    } = r;
    const scalarQuery = Object.entries(query ?? {}).filter(([, v]) => typeof v !== 'object');
    const randomQuery = Object.entries(query ?? {}).filter(([, v]) => typeof v === 'object');
    return {
      method: method ?? 'GET',
      path: path ?? '/',
      query: scalarQuery.map(([key, value]) => ({ key, value: String(value) })),
      bodyBytes: body?.kind === 'bytes' ? body.sizeBytes : undefined,
      jsonBody: body?.kind === 'json' ? JSON.stringify(body.value, null, 2) : '',
      weight: weight ?? 1,
      name: name ?? '',
      headers: Object.entries(headers ?? {}).map(([key, value]) => ({ key, value })),
      extract: (extract ?? []).map(extractRow),
      checks: (checks ?? []).map(checkRow),
      thinkTimeMs,
      kept: {
        ...kept,
        ...(randomQuery.length ? { query: Object.fromEntries(randomQuery) } : {}),
        ...(body?.kind === 'bytes' && typeof body.contentType === 'string'
          ? { contentType: body.contentType }
          : {}),
      },
    };
  });
  return {
    template: s.template,
    params: s.params,
    requests,
    thresholds: s.thresholds?.map((t) => ({ metric: t.metric, expr: t.expr })),
    readyPath: s.readyPath,
    flow: s.flow ?? false,
    data: s.data ?? null,
  };
}

/** JSON text as its value, or the text itself when it is not JSON (the server names the field). */
function jsonOrText(v: string): unknown {
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}
const numberOrText = (v: string) => (/^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v);

function toExtract(e: ExtractRow) {
  if (e.from === 'header') return { name: e.name, from: 'header', header: e.expr };
  if (e.from === 'regex')
    return {
      name: e.name,
      from: 'regex',
      pattern: e.expr,
      ...(e.group !== undefined ? { group: e.group } : {}),
    };
  return { name: e.name, from: 'json', path: e.expr };
}

function toCheck(c: CheckRow) {
  switch (c.kind) {
    case 'status':
      return { kind: 'status', equals: numberOrText(c.value) };
    case 'latency-below':
      return { kind: 'latency-below', ms: numberOrText(c.value) };
    case 'json-equals':
      return { kind: 'json-equals', path: c.path ?? '', value: jsonOrText(c.value) };
    default:
      return { kind: 'body-contains', value: c.value };
  }
}

function toBody(r: RequestRow) {
  if (r.jsonBody?.trim()) return { body: { kind: 'json', value: jsonOrText(r.jsonBody) } };
  if (r.bodyBytes) {
    const contentType = r.kept?.contentType;
    return {
      body: {
        kind: 'bytes',
        sizeBytes: r.bodyBytes,
        ...(typeof contentType === 'string' ? { contentType } : {}),
      },
    };
  }
  return {};
}

/** The scenario the values describe (ScenarioSchema's input); numbers in query values stay numbers. */
export function toScenario(v: ScenarioFormValues) {
  return {
    template: v.template,
    params: v.params,
    readyPath: v.readyPath,
    thresholds: v.thresholds,
    ...(v.flow ? { flow: true } : {}),
    ...(v.data ? { data: v.data } : {}),
    requests: v.requests.map((r) => {
      const { contentType: _contentType, query: keptQuery, ...kept } = r.kept ?? {};
      const headers = (r.headers ?? []).filter((h) => h.key);
      return {
        ...kept,
        method: r.method,
        path: r.path,
        query: {
          ...(typeof keptQuery === 'object' && keptQuery !== null ? keptQuery : {}),
          ...Object.fromEntries(
            r.query
              .filter((q) => q.key)
              .map((q) => [q.key, /^-?\d+(\.\d+)?$/.test(q.value) ? Number(q.value) : q.value]),
          ),
        },
        ...toBody(r),
        ...(r.name?.trim() ? { name: r.name.trim() } : {}),
        ...(headers.length
          ? { headers: Object.fromEntries(headers.map((h) => [h.key, h.value])) }
          : {}),
        ...(r.extract?.length ? { extract: r.extract.map(toExtract) } : {}),
        ...(r.checks?.length ? { checks: r.checks.map(toCheck) } : {}),
        ...(v.flow && r.thinkTimeMs ? { thinkTimeMs: r.thinkTimeMs } : {}),
        weight: v.flow ? 1 : (r.weight ?? 1),
      };
    }),
  };
}

export const toSaveInput = (v: ScenarioFormValues) => ({ name: v.name, scenario: toScenario(v) });

/**
 * The editor field a problem of scenario.create's body is about (paths as the server reports
 * them, `scenario.requests.0.body.sizeBytes`), or null for one the editor has no field for.
 */
export function scenarioField(path: string): string | null {
  if (path === 'name') return 'name';
  const p = path.replace(/^scenario\./, '');
  if (p === path) return null;
  const step = /^requests\.(\d+)\.(extract|checks)\.(\d+)\.([a-zA-Z]+)\b/.exec(p);
  if (step) {
    const field =
      step[2] === 'extract'
        ? step[4] === 'name' || step[4] === 'group'
          ? step[4]
          : 'expr'
        : step[4] === 'path'
          ? 'path'
          : 'value';
    return `requests.${step[1]}.${step[2]}.${step[3]}.${field}`;
  }
  const json = /^requests\.(\d+)\.body\.value\b/.exec(p);
  if (json) return `requests.${json[1]}.jsonBody`;
  const req =
    /^requests\.(\d+)\.(body|query|path|weight|method|headers|name|thinkTimeMs|extract|checks)\b/.exec(
      p,
    );
  if (req) return `requests.${req[1]}.${req[2] === 'body' ? 'bodyBytes' : req[2]}`;
  if (p === 'requests' || p === 'readyPath' || p === 'flow') return p;
  if (/^data(\.(content|format|per))?\b/.test(p))
    return p === 'data' ? 'data.content' : p.split('.').slice(0, 2).join('.');
  const thr = /^thresholds\.(\d+)\.(metric|expr)\b/.exec(p);
  if (thr) return `thresholds.${thr[1]}.${thr[2]}`;
  if (/^params\.stages(\.\d+\.(durationMs|targetVUs))?$/.test(p) || /^params\.[^.]+$/.test(p))
    return p;
  return null;
}

export type ScenarioSave = z.output<typeof ScenarioSaveSchema>;

/** The server's ScenarioSaveSchema as the editor's resolver. */
export const scenarioResolver = serverSchemaResolver<ScenarioFormValues, ScenarioSave>(
  ScenarioSaveSchema,
  toSaveInput,
  scenarioField,
);
