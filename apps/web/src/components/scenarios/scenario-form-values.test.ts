import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import { TEMPLATE_DEFAULTS } from './template-defaults';
import {
  scenarioField,
  scenarioResolver,
  seedOf,
  toScenario,
  type ScenarioFormValues,
} from './scenario-form-values';

const options: ResolverOptions<ScenarioFormValues> = {
  fields: {},
  names: [],
  shouldUseNativeValidation: false,
};
const values = (patch: Partial<ScenarioFormValues> = {}): ScenarioFormValues => ({
  name: 'burst',
  template: 'cold-start-burst',
  params: { ...TEMPLATE_DEFAULTS['cold-start-burst'] },
  requests: [{ method: 'GET', path: '/work', query: [{ key: 'ms', value: '5' }], weight: 1 }],
  thresholds: [{ metric: 'http_req_failed', expr: 'rate<0.01' }],
  readyPath: '/ready',
  ...patch,
});

describe("the scenario editor checks with the server's ScenarioSaveSchema", () => {
  it('valid values resolve to the body scenario.create parses (query numbers as numbers)', async () => {
    const r = await scenarioResolver(values(), undefined, options);
    expect(r.errors).toEqual({});
    expect(r.values).toMatchObject({
      name: 'burst',
      scenario: {
        template: 'cold-start-burst',
        params: { vus: 50 },
        requests: [{ path: '/work', query: { ms: 5 } }],
      },
    });
  });

  it('puts each problem on the editor field it is about', async () => {
    const r = await scenarioResolver(
      values({
        name: ' ',
        params: { ...TEMPLATE_DEFAULTS['cold-start-burst'], vus: 0, holdMs: Number.NaN },
        requests: [{ method: 'GET', path: 'work', query: [], bodyBytes: -1, weight: 1 }],
        thresholds: [{ metric: 'http_req_duration', expr: 'p(95) soon' }],
      }),
      undefined,
      options,
    );
    const e = r.errors as Record<string, unknown>;
    expect(e.name).toMatchObject({ message: 'is required' });
    expect(e.params).toMatchObject({
      vus: { message: expect.any(String) },
      holdMs: { message: expect.any(String) },
    });
    expect(e.requests).toMatchObject([
      {
        path: { message: expect.stringContaining('/') },
        bodyBytes: { message: expect.any(String) },
      },
    ]);
    expect(e.thresholds).toMatchObject([{ expr: { message: expect.any(String) } }]);
    expect(e.scenario).toBeUndefined(); // never under the request's own path
  });

  it("maps the server's request paths to editor fields (null: no field for it)", () => {
    expect(scenarioField('scenario.requests.2.body.sizeBytes')).toBe('requests.2.bodyBytes');
    expect(scenarioField('scenario.requests.0.query.ms.randomInt.min')).toBe('requests.0.query');
    expect(scenarioField('scenario.params.stages.1.targetVUs')).toBe('params.stages.1.targetVUs');
    expect(scenarioField('scenario.thresholds.0.expr')).toBe('thresholds.0.expr');
    expect(scenarioField('name')).toBe('name');
    expect(scenarioField('scenario')).toBeNull();
    expect(scenarioField('id')).toBeNull();
  });

  it('opens a stored scenario, and an older row it cannot read as a new one', () => {
    expect(
      seedOf({
        template: 'sustained',
        params: { vus: 3 },
        requests: [{ path: '/x', body: { kind: 'bytes', sizeBytes: 10 } }],
      }),
    ).toMatchObject({
      template: 'sustained',
      requests: [{ method: 'GET', path: '/x', bodyBytes: 10, weight: 1, query: [] }],
    });
    expect(seedOf({ template: 'no-such-template' })).toBeNull();
  });

  it('saves what it opened: a flow, its data and every request field, edited or not', () => {
    const stored = {
      template: 'fixed-requests',
      params: { requests: 10, concurrency: 2 },
      readyPath: '/ready',
      thresholds: [{ metric: 'http_req_failed', expr: 'rate<0.01' }],
      flow: true,
      data: { format: 'csv', content: 'username,password\nu1,pw-u1\n', per: 'vu' },
      requests: [
        {
          name: 'login',
          method: 'POST',
          path: '/login',
          query: { n: 1, r: { randomInt: { min: 1, max: 9 } } },
          headers: { 'X-Team': 'a' },
          body: { kind: 'json', value: { username: '{{username}}', password: '{{password}}' } },
          extract: [
            { name: 'token', from: 'json', path: 'token' },
            { name: 'rid', from: 'regex', pattern: 'id=(\\d+)', group: 1 },
          ],
          checks: [
            { kind: 'status', equals: 200 },
            { kind: 'json-equals', path: 'user.name', value: 'u1' },
          ],
          thinkTimeMs: 250,
          timeoutMs: 5000,
          priority: { header: 'X-Priority', value: 'high', fraction: 0.5 },
          weight: 1,
        },
        {
          method: 'PUT',
          path: '/upload',
          query: {},
          body: { kind: 'bytes', sizeBytes: 64, contentType: 'text/plain' },
          checks: [{ kind: 'latency-below', ms: 300 }],
          weight: 1,
        },
      ],
    };
    const seed = seedOf(stored)!;
    const again = toScenario({
      name: 'x',
      ...seed,
      thresholds: seed.thresholds ?? [],
      readyPath: '/ready',
    });
    expect(again).toEqual(stored);
  });
});
