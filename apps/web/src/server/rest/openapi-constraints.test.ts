import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApi } from './openapi';

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
});
