import { z } from 'zod';
import { TEMPLATE_IDS, type TemplateId } from '@poolbench/scenarios';
import { ScenarioSaveSchema } from '~/lib/schemas/scenario';
import { serverSchemaResolver } from '~/lib/forms/server-schema-resolver';

/** A request as the editor holds it: query as rows, the body as a byte count. */
export interface RequestRow {
  method: string;
  path: string;
  query: Array<{ key: string; value: string }>;
  bodyBytes?: number;
  weight?: number;
}

/** The scenario editor's values (react-hook-form); `toSaveInput` makes them scenario.create's body. */
export interface ScenarioFormValues {
  name: string;
  template: TemplateId;
  params: Record<string, unknown>;
  requests: RequestRow[];
  thresholds: Array<{ metric: string; expr: string }>;
  readyPath: string;
}

const EditorSeed = z.looseObject({
  template: z.enum(TEMPLATE_IDS),
  params: z.record(z.string(), z.unknown()).default({}),
  requests: z.array(z.unknown()).catch([]),
  thresholds: z.array(z.looseObject({ metric: z.string(), expr: z.string() })).optional(),
  readyPath: z.string().optional(),
});
const StoredRequest = z.looseObject({
  method: z.string().optional(),
  path: z.string().optional(),
  query: z.record(z.string(), z.unknown()).optional(),
  body: z.looseObject({ kind: z.string().optional(), sizeBytes: z.number().optional() }).optional(),
  weight: z.number().optional(),
});

/** The saved scenario as the editor starts from it; a row from an older schema still opens. */
export function seedOf(scenario: unknown) {
  const s = EditorSeed.safeParse(scenario).data;
  if (!s) return null;
  const requests = s.requests.map((raw): RequestRow => {
    const r = StoredRequest.safeParse(raw).data ?? {};
    return {
      method: r.method ?? 'GET',
      path: r.path ?? '/',
      query: Object.entries(r.query ?? {}).map(([key, value]) => ({ key, value: String(value) })),
      bodyBytes: r.body?.kind === 'bytes' ? r.body.sizeBytes : undefined,
      weight: r.weight ?? 1,
    };
  });
  return {
    template: s.template,
    params: s.params,
    requests,
    thresholds: s.thresholds?.map((t) => ({ metric: t.metric, expr: t.expr })),
    readyPath: s.readyPath,
  };
}

/** The scenario the values describe (ScenarioSchema's input); numbers in query values stay numbers. */
export function toScenario(v: ScenarioFormValues) {
  return {
    template: v.template,
    params: v.params,
    readyPath: v.readyPath,
    thresholds: v.thresholds,
    requests: v.requests.map((r) => ({
      method: r.method,
      path: r.path,
      query: Object.fromEntries(
        r.query
          .filter((q) => q.key)
          .map((q) => [q.key, /^-?\d+(\.\d+)?$/.test(q.value) ? Number(q.value) : q.value]),
      ),
      ...(r.bodyBytes ? { body: { kind: 'bytes', sizeBytes: r.bodyBytes } } : {}),
      weight: r.weight ?? 1,
    })),
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
  const req = /^requests\.(\d+)\.(body|query|path|weight|method)\b/.exec(p);
  if (req) return `requests.${req[1]}.${req[2] === 'body' ? 'bodyBytes' : req[2]}`;
  if (p === 'requests' || p === 'readyPath') return p;
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
