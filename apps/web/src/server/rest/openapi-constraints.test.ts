import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApi, NO_NUL } from './openapi';
import { OPERATIONS } from './operations';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The OpenAPI document states the rules the server checks, so a generated client (or a fuzzer)
 * does not send what is refused: each rule is in the document, and the documented schema itself
 * refuses what the server refuses and accepts what it accepts.
 */
describe('OpenAPI document states the server rules', () => {
  const doc = buildOpenApi('http://pb.test');
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components } as Json);
  const start = ajv.getSchema('doc#/components/schemas/StartExperiment')!;
  const compare = (doc.paths as Json)['/experiments/{id}/compare'].get as Json;
  const querySchema = compare.parameters.find((p: Json) => p.in === 'query').schema as Json;
  const query = new Ajv2020({ strict: false }).compile(querySchema);

  const experiment = (over: { thresholds?: unknown; query?: unknown }) => ({
    kind: 'inline',
    name: 'pr-1',
    target: 'Lab',
    poolConfigs: ['lazy'],
    scenario: {
      template: 'constant-arrival-rate',
      params: { ratePerSec: 50, durationMs: 2000, preAllocatedVUs: 5 },
      requests: [{ method: 'GET', path: '/work', query: over.query ?? { ms: 50 } }],
      ...(over.thresholds ? { thresholds: over.thresholds } : {}),
    },
    repeats: 4,
  });

  it("thresholds: expr has the grammar's pattern, and the aggregation must fit the metric", () => {
    const json = JSON.stringify(doc);
    expect(json).toContain('"expr":{"type":"string","maxLength":64,"pattern":');
    const ok = (metric: string, expr: string) =>
      start(experiment({ thresholds: [{ metric, expr }] }));
    expect(ok('http_req_duration', 'p(95)<500')).toBe(true);
    expect(ok('http_req_failed', 'rate<0.01')).toBe(true);
    expect(ok('http_reqs', 'count>10')).toBe(true);
    expect(ok('http_req_duration', 'p95 < 500')).toBe(false);
    expect(ok('http_req_duration', 'p(101)<500')).toBe(false);
    expect(ok('http_req_duration', 'rate<1')).toBe(false);
    expect(ok('http_req_failed', 'p(95)<1')).toBe(false);
    expect(ok('http_req_duration', 'avg<abc')).toBe(false);
  });

  it('randomInt: min ≤ max is stated (JSON Schema cannot compare two fields)', () => {
    expect(JSON.stringify(doc)).toContain('"x-constraint":"min <= max"');
    expect(start(experiment({ query: { key: { randomInt: { min: 0, max: 9 } } } }))).toBe(true);
  });

  it('compare: baseline and base exclude each other, from and to come together, metrics are known keys', () => {
    expect(querySchema.not).toEqual({ required: ['baseline', 'base'] });
    expect(querySchema.dependentRequired).toEqual({ from: ['to'], to: ['from'] });
    expect(query({ baseline: 'main' })).toBe(true);
    expect(query({ base: 'lazy' })).toBe(true);
    expect(query({ baseline: 'main', base: 'lazy' })).toBe(false);
    expect(query({ from: 10 })).toBe(false);
    expect(query({ from: 10, to: 60 })).toBe(true);
    // a bound past any run's length is documented as refused, so a fuzzer does not send it
    expect(query({ from: 0, to: 7200 })).toBe(true);
    expect(query({ from: 0, to: 9007199254740992 })).toBe(false);
    expect(query({ metrics: 'p99Ms, rps' })).toBe(true);
    expect(query({ metrics: '' })).toBe(false);
    expect(query({ metrics: 'p99Ms,nope' })).toBe(false);
  });
  it('every string a request carries has a pattern, and a NUL is refused where none of its own was', () => {
    const inputs: Json[] = [];
    const bodyNames = new Set(OPERATIONS.flatMap((o) => (o.bodyName ? [o.bodyName] : [])));
    for (const [name, s] of Object.entries((doc.components as Json).schemas as Json))
      if ([...bodyNames].some((b) => name === b || name.startsWith(`${b}_`))) inputs.push(s);
    for (const item of Object.values(doc.paths as Json))
      for (const op of Object.values(item as Json))
        for (const p of (op as Json).parameters ?? []) inputs.push(p.schema);
    const bare: string[] = [];
    let noNul = 0;
    const walk = (v: unknown, at: string): void => {
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}/${i}`));
      if (!v || typeof v !== 'object') return;
      const o = v as Json;
      if (o.type === 'string' && o.enum === undefined && o.const === undefined) {
        if (typeof o.pattern !== 'string') bare.push(at);
        else if (o.pattern === NO_NUL) noNul++;
      }
      for (const [k, x] of Object.entries(o)) walk(x, `${at}/${k}`);
    };
    inputs.forEach((s, i) => walk(s, `#${i}`));
    expect(bare).toEqual([]);
    expect(noNul).toBeGreaterThan(10);
    // free text and a script metric's tag value: the document itself refuses a NUL there
    const claim = (text: string) => ({
      ...experiment({}),
      hypotheses: [
        {
          base: { poolConfig: 'lazy' },
          candidate: { poolConfig: 'lazy' },
          metric: 'p95Ms',
          expect: 'better',
          band: 5,
          claim: text,
        },
      ],
    });
    expect(start(claim('faster'))).toBe(true);
    expect(start(claim('fast\u0000er'))).toBe(false);
    const tag = (v: string) =>
      start(experiment({ thresholds: [{ metric: `mine{a:${v}}`, expr: 'p(95)<5' }] }));
    expect(tag('b')).toBe(true);
    expect(tag('b\u0000')).toBe(false);
  });
});
